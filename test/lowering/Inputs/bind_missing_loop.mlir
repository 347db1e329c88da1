// expected-error@+1 {{sparse-pos-bind: no sparse_pos.for labelled "nope"; there is none (lower-sparse-iter makes them from stage I iterations)}}
module {
}
