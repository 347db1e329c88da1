// expected-error@+1 {{sparse-pos-bind: shuffle=true combines the lanes of a warp: it binds to threadIdx.x only, without atomic=true (got to=threadIdx.x atomic=true)}}
module {
}
