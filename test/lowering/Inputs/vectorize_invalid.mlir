// Loops vectorize-loops cannot rewrite (see ../vectorize_loops.mlir).

func.func @strided(%x: memref<?xf32>, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    // expected-error@+1 {{cannot run as vectors of 4: its 'arith.muli' here cannot (it uses the loop index other than as `base + lane`)}}
    %k = arith.muli %l, %c2 : index
    memref.store %f, %x[%k] : memref<?xf32>
  } {vectorize = 4 : index}
  return
}

// -----

func.func @one_element(%x: memref<?xf32>, %y: memref<?xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %v = memref.load %x[%l] : memref<?xf32>
    // expected-error@+1 {{cannot run as vectors of 4: its 'memref.store' here cannot (the lanes write one element, and not as `m[i] = m[i] + value` with nothing else reading m[i])}}
    memref.store %v, %y[%i] : memref<?xf32>
  } {vectorize = 4 : index}
  return
}

// -----

func.func @atomic(%x: memref<?xf32>, %i: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    // expected-error@+1 {{cannot run as vectors of 4: its 'memref.atomic_rmw' here cannot (it would run once instead of once per lane)}}
    %old = memref.atomic_rmw addf %f, %x[%i] : (f32, memref<?xf32>) -> f32
  } {vectorize = 4 : index}
  return
}

// -----

// Bits are packed differently in memory and in vectors.
func.func @bits(%x: memref<?xi1>, %y: memref<?xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    // expected-error@+1 {{cannot run as vectors of 4: its 'memref.load' here cannot (the memref is not a 1-D memref of whole-byte numbers with the identity layout)}}
    %v = memref.load %x[%l] : memref<?xi1>
    memref.store %v, %y[%l] : memref<?xi1>
  } {vectorize = 4 : index}
  return
}

// -----

// The mark promises 4 lanes; the loop runs 3 (changed since, or marked by
// hand): no vector of 3 floats, nor of 0 or 2^32.
func.func @three_positions(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{vectorize-loops: a marked loop must run 2 or 4 positions (8- or 16-byte vectors); this one runs 3}}
  scf.for %l = %c0 to %c3 step %c1 {
    %a = memref.load %x[%l] : memref<?xf32>
    memref.store %a, %y[%l] : memref<?xf32>
  } {vectorize = 4 : index}
  return
}

// -----

// y[t*4 + l] += y[j]: lane l reads y[j] after the lanes before it stored
// (j may be t*4 + 1), so the read of y[j] cannot run once for all lanes.
func.func @uniform_read_of_written(%y: memref<?xf32>, %j: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %t, %c4 : index
  scf.for %l = %c0 to %c4 step %c1 {
    %k = arith.addi %base, %l : index
    // expected-error@+1 {{its 'memref.load' here cannot (it reads, once for all lanes, memory that the loop writes, where a lane may read what an earlier one stored)}}
    %v = memref.load %y[%j] : memref<?xf32>
    %x = memref.load %y[%k] : memref<?xf32>
    %p = arith.addf %x, %v : f32
    memref.store %p, %y[%k] : memref<?xf32>
  } {vectorize = 4 : index}
  return
}
