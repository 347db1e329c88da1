// A spatial loop over a list of row ids (a hyb bucket that owns its
// rows): each position clears its row, then adds to it feature by
// feature. The ids are a sparse axis's coordinates, which the loop's
// spatial kind declares distinct (`lower-sparse-iter` marks their load
// `sptir.distinct`), so the clearing store and the later loads of other
// features meet no other position's row.
func.func @owned_rows(%rows: !sparse_iter.buffer<1, i32>, %c: !sparse_iter.buffer<2, f32>,
                      %b: !sparse_iter.buffer<2, f32>, %n: index, %feat: index) {
  %c0 = arith.constant 0 : index
  sparse_pos.for "own" spatial %c0 to %n {
  ^bb0(%p: index):
    %r32 = sparse_pos.load %rows[%p] {sptir.distinct} : !sparse_iter.buffer<1, i32>
    %r = arith.index_cast %r32 : i32 to index
    sparse_pos.for "clear" spatial %c0 to %feat {
    ^bb0(%f: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %c[%r, %f] : !sparse_iter.buffer<2, f32>
    }
    sparse_pos.for "add" spatial %c0 to %feat {
    ^bb0(%f: index):
      %old = sparse_pos.load %c[%r, %f] : !sparse_iter.buffer<2, f32>
      %v = sparse_pos.load %b[%p, %f] : !sparse_iter.buffer<2, f32>
      %sum = arith.addf %old, %v : f32
      sparse_pos.store %sum, %c[%r, %f] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

// -----

// The id is read at a slot two positions share (p / 2): their rows may
// be one, so the clearing store may meet the other position's loads.
func.func @shared_slot(%rows: !sparse_iter.buffer<1, i32>, %c: !sparse_iter.buffer<2, f32>,
                       %b: !sparse_iter.buffer<2, f32>, %n: index, %feat: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error@+1 {{sparse-pos-bind: positions of loop "own" pass data to each other, so they cannot run at once on blockIdx.x: at two of its positions, the sparse_pos.store at line 47:7 and the sparse_pos.load at line 51:14 may touch one element, and one of them stores it}}
  sparse_pos.for "own" spatial %c0 to %n {
  ^bb0(%p: index):
    %slot = arith.divui %p, %c2 : index
    %r32 = sparse_pos.load %rows[%slot] {sptir.distinct} : !sparse_iter.buffer<1, i32>
    %r = arith.index_cast %r32 : i32 to index
    sparse_pos.for "clear" spatial %c0 to %feat {
    ^bb0(%f: index):
      %zero = arith.constant 0.0 : f32
      sparse_pos.store %zero, %c[%r, %f] : !sparse_iter.buffer<2, f32>
    }
    sparse_pos.for "add" spatial %c0 to %feat {
    ^bb0(%f: index):
      %old = sparse_pos.load %c[%r, %f] : !sparse_iter.buffer<2, f32>
      %v = sparse_pos.load %b[%p, %f] : !sparse_iter.buffer<2, f32>
      %sum = arith.addf %old, %v : f32
      sparse_pos.store %sum, %c[%r, %f] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

// -----

// Ids read from other data (a group of each position) may repeat: a
// position reads the element of the group's next column, which the next
// position writes where the two share a group.
func.func @group_data(%group: !sparse_iter.buffer<1, i32>, %t: !sparse_iter.buffer<2, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{sparse-pos-bind: positions of loop "own" pass data to each other}}
  sparse_pos.for "own" spatial %c0 to %n {
  ^bb0(%p: index):
    %g32 = sparse_pos.load %group[%p] : !sparse_iter.buffer<1, i32>
    %g = arith.index_cast %g32 : i32 to index
    %next = arith.addi %p, %c1 : index
    %v = sparse_pos.load %t[%g, %next] : !sparse_iter.buffer<2, f32>
    sparse_pos.store %v, %t[%g, %p] : !sparse_iter.buffer<2, f32>
  }
  return
}
