// Each row of a triangular solve reads the rows before it: its positions
// cannot run at once, atomic writes or not.
func.func @forward_substitution(%x: !sparse_iter.buffer<1, f32>, %l: !sparse_iter.buffer<2, f32>,
                                %cols: !sparse_iter.buffer<2, i32>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{sparse-pos-bind: positions of loop "rows" pass data to each other, so they cannot run at once on blockIdx.x: at two of its positions, the sparse_pos.load at line 11:11 and the sparse_pos.store at line 15:5 may touch one element, and one of them stores it}}
  sparse_pos.for "rows" reduction %c0 to %n {
  ^bb0(%i: index):
    %c32 = sparse_pos.load %cols[%i, %c0] : !sparse_iter.buffer<2, i32>
    %col = arith.index_cast %c32 : i32 to index
    %xj = sparse_pos.load %x[%col] : !sparse_iter.buffer<1, f32>
    %lv = sparse_pos.load %l[%i, %c0] : !sparse_iter.buffer<2, f32>
    %xi = sparse_pos.load %x[%i] : !sparse_iter.buffer<1, f32>
    %s = arith.subf %xi, %lv : f32
    sparse_pos.store %s, %x[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
