// Blocks of 48 rows, each split by 5 (10 chunks, the last one short or
// clamped): a row's features are cleared, then doubled.
// The tail guard r < 48 keeps a block's rows o * 48 + r to its own 48.
func.func @tail_guard(%t: !sparse_iter.buffer<2, f32>, %blocks: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c48 = arith.constant 48 : index
  %zero = arith.constant 0.0 : f32
  sparse_pos.for "blk" spatial %c0 to %blocks {
  ^bb0(%o: index):
    sparse_pos.for "chunk" spatial %c0 to %c10 {
    ^bb0(%io: index):
      sparse_pos.for "lane" spatial %c0 to %c5 {
      ^bb0(%ii: index):
        %s = arith.muli %io, %c5 : index
        %r = arith.addi %s, %ii : index
        %in = arith.cmpi ult, %r, %c48 : index
        scf.if %in {
          %base = arith.muli %o, %c48 : index
          %row = arith.addi %base, %r : index
          sparse_pos.for "f" spatial %c0 to %n {
          ^bb0(%k: index):
            sparse_pos.store %zero, %t[%row, %k] : !sparse_iter.buffer<2, f32>
          }
          sparse_pos.for "g" spatial %c0 to %n {
          ^bb0(%j: index):
            %old = sparse_pos.load %t[%row, %j] : !sparse_iter.buffer<2, f32>
            %new = arith.addf %old, %old : f32
            sparse_pos.store %new, %t[%row, %j] : !sparse_iter.buffer<2, f32>
          }
        }
      }
    }
  }
  return
}

// -----

// A guard looser than the block (r < 50) lets block o reach block o + 1's
// first rows.
func.func @wide_guard(%t: !sparse_iter.buffer<2, f32>, %blocks: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c48 = arith.constant 48 : index
  %c50 = arith.constant 50 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{sparse-pos-bind: positions of loop "blk" pass data to each other}}
  sparse_pos.for "blk" spatial %c0 to %blocks {
  ^bb0(%o: index):
    sparse_pos.for "chunk" spatial %c0 to %c10 {
    ^bb0(%io: index):
      sparse_pos.for "lane" spatial %c0 to %c5 {
      ^bb0(%ii: index):
        %s = arith.muli %io, %c5 : index
        %r = arith.addi %s, %ii : index
        %in = arith.cmpi ult, %r, %c50 : index
        scf.if %in {
          %base = arith.muli %o, %c48 : index
          %row = arith.addi %base, %r : index
          sparse_pos.for "f" spatial %c0 to %n {
          ^bb0(%k: index):
            sparse_pos.store %zero, %t[%row, %k] : !sparse_iter.buffer<2, f32>
          }
          sparse_pos.for "g" spatial %c0 to %n {
          ^bb0(%j: index):
            %old = sparse_pos.load %t[%row, %j] : !sparse_iter.buffer<2, f32>
            %new = arith.addf %old, %old : f32
            sparse_pos.store %new, %t[%row, %j] : !sparse_iter.buffer<2, f32>
          }
        }
      }
    }
  }
  return
}

// -----

// The guard holds the clearing but not the doubling, which reaches past
// the block's rows where r >= 48.
func.func @doubled_outside_the_guard(%t: !sparse_iter.buffer<2, f32>, %blocks: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c48 = arith.constant 48 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{sparse-pos-bind: positions of loop "blk" pass data to each other}}
  sparse_pos.for "blk" spatial %c0 to %blocks {
  ^bb0(%o: index):
    sparse_pos.for "chunk" spatial %c0 to %c10 {
    ^bb0(%io: index):
      sparse_pos.for "lane" spatial %c0 to %c5 {
      ^bb0(%ii: index):
        %s = arith.muli %io, %c5 : index
        %r = arith.addi %s, %ii : index
        %base = arith.muli %o, %c48 : index
        %row = arith.addi %base, %r : index
        %in = arith.cmpi ult, %r, %c48 : index
        scf.if %in {
          sparse_pos.for "f" spatial %c0 to %n {
          ^bb0(%k: index):
            sparse_pos.store %zero, %t[%row, %k] : !sparse_iter.buffer<2, f32>
          }
        }
        sparse_pos.for "g" spatial %c0 to %n {
        ^bb0(%j: index):
          %old = sparse_pos.load %t[%row, %j] : !sparse_iter.buffer<2, f32>
          %new = arith.addf %old, %old : f32
          sparse_pos.store %new, %t[%row, %j] : !sparse_iter.buffer<2, f32>
        }
      }
    }
  }
  return
}

// -----

// A clamped split instead: each chunk runs min(5, 48 - its start) rows,
// so a block's rows stay below its 48.
func.func @clamped(%t: !sparse_iter.buffer<2, f32>, %blocks: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c48 = arith.constant 48 : index
  %ctotal = arith.constant 48 : index
  %zero = arith.constant 0.0 : f32
  sparse_pos.for "blk" spatial %c0 to %blocks {
  ^bb0(%o: index):
    sparse_pos.for "chunk" spatial %c0 to %c10 {
    ^bb0(%io: index):
      %s = arith.muli %io, %c5 : index
      %left = arith.subi %ctotal, %s : index
      %size = arith.minui %c5, %left : index
      sparse_pos.for "lane" spatial %c0 to %size {
      ^bb0(%ii: index):
        %r = arith.addi %s, %ii : index
        %base = arith.muli %o, %c48 : index
        %row = arith.addi %base, %r : index
        sparse_pos.for "f" spatial %c0 to %n {
        ^bb0(%k: index):
          sparse_pos.store %zero, %t[%row, %k] : !sparse_iter.buffer<2, f32>
        }
        sparse_pos.for "g" spatial %c0 to %n {
        ^bb0(%j: index):
          %old = sparse_pos.load %t[%row, %j] : !sparse_iter.buffer<2, f32>
          %new = arith.addf %old, %old : f32
          sparse_pos.store %new, %t[%row, %j] : !sparse_iter.buffer<2, f32>
        }
      }
    }
  }
  return
}

// -----

// Clamped to 50 rows, a block's chunks reach the next block's rows.
func.func @clamped_past_the_block(%t: !sparse_iter.buffer<2, f32>, %blocks: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c48 = arith.constant 48 : index
  %ctotal = arith.constant 50 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{sparse-pos-bind: positions of loop "blk" pass data to each other}}
  sparse_pos.for "blk" spatial %c0 to %blocks {
  ^bb0(%o: index):
    sparse_pos.for "chunk" spatial %c0 to %c10 {
    ^bb0(%io: index):
      %s = arith.muli %io, %c5 : index
      %left = arith.subi %ctotal, %s : index
      %size = arith.minui %c5, %left : index
      sparse_pos.for "lane" spatial %c0 to %size {
      ^bb0(%ii: index):
        %r = arith.addi %s, %ii : index
        %base = arith.muli %o, %c48 : index
        %row = arith.addi %base, %r : index
        sparse_pos.for "f" spatial %c0 to %n {
        ^bb0(%k: index):
          sparse_pos.store %zero, %t[%row, %k] : !sparse_iter.buffer<2, f32>
        }
        sparse_pos.for "g" spatial %c0 to %n {
        ^bb0(%j: index):
          %old = sparse_pos.load %t[%row, %j] : !sparse_iter.buffer<2, f32>
          %new = arith.addf %old, %old : f32
          sparse_pos.store %new, %t[%row, %j] : !sparse_iter.buffer<2, f32>
        }
      }
    }
  }
  return
}
