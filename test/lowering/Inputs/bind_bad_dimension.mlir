// A bad option value is a pipeline error, reported before any pass runs.
// CHECK: option 'to' of pass 'sparse-pos-bind' must be one of blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, got 'warp.x'
module {
}
