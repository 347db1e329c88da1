// expected-error@+1 {{sparse-pos-bind: cannot bind to 'warp.x'; expected one of blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z}}
module {
}
