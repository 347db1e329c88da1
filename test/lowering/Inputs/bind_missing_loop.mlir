// expected-error@+1 {{sparse-pos-bind: no sparse_pos.for labelled "nope"}}
module {
}
