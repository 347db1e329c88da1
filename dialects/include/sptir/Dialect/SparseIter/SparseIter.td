//===- SparseIter.td - stage I: axes, sparse buffers, sparse iterations ---===//
//
// Stage I of sptir (SparseTIR section 3.1). Everything here lives in
// coordinate space: an iteration walks the non-zeros of a composition of
// axes and its body reads and writes sparse buffers by coordinates.
//
//===----------------------------------------------------------------------===//

#ifndef SPTIR_SPARSE_ITER_TD
#define SPTIR_SPARSE_ITER_TD

include "sptir/Dialect/SparseIter/SparseIterBase.td"

//===----------------------------------------------------------------------===//
// Axes
//===----------------------------------------------------------------------===//

def SparseIter_DenseFixedOp : SparseIter_AxisOp<"dense_fixed"> {
  let summary = "a dense axis with a fixed extent";
  let description = [{
    A root axis whose coordinates are `0 .. length`: coordinate equals
    position. Used for the rows of CSR, feature dimensions, block
    dimensions, and as a *detached* axis that gives a dense operand the
    coordinate range of a sparse axis (`B: (J_detach, K)` in SpMM).

    ```mlir
    %I = sparse_iter.dense_fixed %m
    ```
  }];
  let arguments = (ins Index:$length);
  let assemblyFormat = "$length attr-dict";
}

def SparseIter_DenseVariableOp : SparseIter_AxisOp<"dense_variable"> {
  let summary = "a dense axis whose extent varies per parent position (ragged)";
  let description = [{
    Under parent position `p` the axis has `indptr[p+1] - indptr[p]`
    positions, and coordinate equals position. `length` is the largest
    extent and `nnz` the number of non-zeros of the space this axis closes.
    `indptr` has one more entry than the parent space has positions.

    ```mlir
    %L = sparse_iter.dense_variable %B, %indptr length %maxlen nnz %total : memref<?xi32>
    ```
  }];
  let arguments = (ins SparseIter_AxisType:$parent, IdMemRef:$indptr,
                       Index:$length, Index:$nnz);
  let assemblyFormat = [{
    $parent `,` $indptr `length` $length `nnz` $nnz attr-dict `:` type($indptr)
  }];
  let hasVerifier = 1;
}

def SparseIter_SparseFixedOp : SparseIter_AxisOp<"sparse_fixed"> {
  let summary = "a sparse axis with a fixed number of non-zeros per parent position";
  let description = [{
    Every parent position owns `nnz_cols` positions; the coordinate of a
    position is read from `indices` (ELL). `length` is the coordinate range.

    ```mlir
    %J = sparse_iter.sparse_fixed %I, %indices length %n nnz_cols %k sorted : memref<?xi32>
    ```
  }];
  let arguments = (ins SparseIter_AxisType:$parent, IdMemRef:$indices,
                       Index:$length, Index:$nnz_cols, UnitAttr:$sorted);
  let assemblyFormat = [{
    $parent `,` $indices `length` $length `nnz_cols` $nnz_cols
    (`sorted` $sorted^)? attr-dict `:` type($indices)
  }];
  let hasVerifier = 1;
}

def SparseIter_SparseVariableOp : SparseIter_AxisOp<"sparse_variable"> {
  let summary = "a sparse axis with a variable number of non-zeros per parent position";
  let description = [{
    The CSR column axis: parent position `p` owns positions
    `indptr[p] .. indptr[p+1]` and their coordinates are `indices[...]`.
    `length` is the coordinate range, `nnz` the number of non-zeros of the
    space this axis closes. `sorted` promises ascending coordinates in each
    row, which a coordinate lookup (binary search) needs.

    ```mlir
    %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
           : memref<?xi32>, memref<?xi32>
    ```
  }];
  let arguments = (ins SparseIter_AxisType:$parent, IdMemRef:$indptr,
                       IdMemRef:$indices, Index:$length, Index:$nnz,
                       UnitAttr:$sorted);
  let assemblyFormat = [{
    $parent `,` $indptr `,` $indices `length` $length `nnz` $nnz
    (`sorted` $sorted^)? attr-dict `:` type($indptr) `,` type($indices)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sparse buffers
//===----------------------------------------------------------------------===//

def SparseIter_MatchBufferOp : SparseIter_Op<"match_buffer", [Pure]> {
  let summary = "bind a value array to a composition of axes";
  let description = [{
    The sparse buffer whose non-zero values are stored, in CSF order, in the
    1-D memref `values`. Every axis that has a parent must directly follow
    its parent in the axis list (CSF order). `extra` adds that many trailing elements beyond
    what the axes imply (an indptr array over `[I]` has `extra 1`); they
    have no coordinate, so at stage I `P[i + 1]` at the last row reads the
    default like any coordinate past an axis's length, and only a
    `sparse_pos.load` reads them, by position.
    `default_value` is what a load of a coordinate that is not stored
    returns (zero if absent), and a store there goes nowhere: a sparse
    coordinate not found, or one outside a dense axis's length (`i - 1`
    at the first row).

    ```mlir
    %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
    ```
  }];
  let arguments = (ins MemRefRankOf<[AnyType], [1]>:$values,
                       Variadic<SparseIter_AxisType>:$axes,
                       OptionalAttr<I64Attr>:$extra,
                       OptionalAttr<TypedAttrInterface>:$default_value);
  let results = (outs SparseIter_BufferType:$buffer);
  let assemblyFormat = [{
    $values `[` $axes `]` (`extra` $extra^)? attr-dict `:` type($values) `->` type($buffer)
  }];
  let hasVerifier = 1;
}

def SparseIter_AllocBufferOp : SparseIter_Op<"alloc_buffer"> {
  let summary = "an intermediate sparse buffer";
  let description = [{
    A sparse buffer not bound to an argument, composed of `axes`, placed in
    memory `scope` (`global` if absent):

    - `global`: heap memory, freed where the enclosing block ends. On the
      GPU it must be allocated outside the loops bound to the GPU (every
      block and thread then sees the same buffer); allocated inside one,
      where loops bound to threadIdx would share it, it is refused.
    - `shared`: one buffer per block of GPU threads, in workgroup memory;
      its size must be known when compiling (constant axis lengths, or
      sizes made constant by `specialize-arguments`). On the CPU it is
      stack memory.
    - `local`: one buffer per thread (stack memory; GPU local memory).

    ```mlir
    %T = sparse_iter.alloc_buffer [%I, %J] scope "shared" : !sparse_iter.buffer<2, f32>
    ```
  }];
  let arguments = (ins Variadic<SparseIter_AxisType>:$axes,
                       OptionalAttr<StrAttr>:$scope);
  let results = (outs SparseIter_BufferType:$buffer);
  let assemblyFormat = [{
    ` ` `[` $axes `]` (`scope` $scope^)? attr-dict `:` type($buffer)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sparse iterations
//===----------------------------------------------------------------------===//

def SparseIter_YieldOp : SparseIter_Op<"yield", [Pure, Terminator,
    ParentOneOf<["IterateOp"]>]> {
  let summary = "terminates the regions of a sparse iteration";
  let description = [{
    Ends an `init` or `body` region. It is implicit in the custom form.
  }];
  let assemblyFormat = "attr-dict";
}

def SparseIter_IterateOp : SparseIter_Op<"iterate", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "a sparse iteration over the non-zeros of a composition of axes";
  let description = [{
    Walks every non-zero of the space spanned by `axes`, in order. `kinds`
    gives one character per axis: `S` (spatial) or `R` (reduction).
    `S` promises that different coordinates of the axis write different
    elements, so that a GPU schedule may run them at once. The default
    schedule checks what it can: a store none of whose coordinates
    follows the axis (`Y[0]` under `S`) keeps the axis's points in one
    thread, in turn, and a hand schedule binding it is refused. A store
    at a computed or indirect coordinate that repeats (`Y[i / 2]`,
    `Y[perm[i]]` with a repeated entry) is taken at its word and races.
    `fuse(...)` in the axis list groups consecutive axes, each the child of
    the one before, into a single loop over their non-zeros (TACO's
    collapse). The body receives one coordinate (`index`) per axis. The
    optional `init` region receives the spatial coordinates only and runs
    once per spatial point before its first reduction step. Every axis with
    a parent must follow its parent in the list or have it walked by an
    enclosing iteration. `label` names the iteration for schedules.
    Annotations (`preprocess` marks format-conversion copies) go in the
    attribute dictionary.

    ```mlir
    sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
    ^bb0(%i: index, %k: index):
      sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    } body {
    ^bb0(%i: index, %j: index, %k: index):
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$label, Variadic<SparseIter_AxisType>:$axes,
                       StrAttr:$kinds,
                       OptionalAttr<DenseI64ArrayAttr>:$fuse_groups);
  let regions = (region AnyRegion:$init, SizedRegion<1>:$body);
  let assemblyFormat = [{
    $label custom<AxisList>($axes, $fuse_groups) $kinds attr-dict-with-keyword
    custom<Regions>($init, $body)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Sizes of the fused groups, one per loop the iteration lowers to.
    ::llvm::SmallVector<int64_t> getGroupSizes();
  }];
}

//===----------------------------------------------------------------------===//
// Coordinate-space access
//===----------------------------------------------------------------------===//

def SparseIter_LoadOp : SparseIter_Op<"load", [
    TypesMatchWith<"result type is the buffer's element type", "buffer",
      "result", "::llvm::cast<::sptir::sparse_iter::BufferType>($_self).getElementType()">]> {
  let summary = "read a sparse buffer at coordinates";
  let description = [{
    Loads the value at one coordinate per axis of `buffer`. A coordinate
    may be any `index` value: an iterator, arithmetic on iterators, or a
    value loaded from another buffer (indirect access). A coordinate that is
    not stored reads the buffer's default value.

    ```mlir
    %a = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    ```
  }];
  let arguments = (ins SparseIter_BufferType:$buffer, Variadic<Index>:$coords);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer `[` $coords `]` attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def SparseIter_StoreOp : SparseIter_Op<"store", [
    TypesMatchWith<"stored value has the buffer's element type", "buffer",
      "value", "::llvm::cast<::sptir::sparse_iter::BufferType>($_self).getElementType()">]> {
  let summary = "write a sparse buffer at coordinates";
  let description = [{
    Stores `value` at one coordinate per axis of `buffer`.

    ```mlir
    sparse_iter.store %v, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    ```
  }];
  let arguments = (ins AnyType:$value, SparseIter_BufferType:$buffer,
                       Variadic<Index>:$coords);
  let assemblyFormat = "$value `,` $buffer `[` $coords `]` attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Format decomposition
//===----------------------------------------------------------------------===//

def SparseIter_FormatRewriteOp : SparseIter_Op<"format_rewrite"> {
  let summary = "a format decomposition rule: store a buffer's values in another format";
  let description = [{
    Declares that the values of `source` are also stored in `target`, a
    buffer over other axes (SparseTIR's `FormatRewriteRule`, section
    3.2.1). `map` takes a coordinate of `source` to the coordinate it has in
    `target`; `inverse` takes a coordinate of `target` back. Several rules on
    one source decompose it (hyb: one rule per ELL bucket); together their
    targets must hold each non-zero of the source exactly once, and a
    target slot whose inverse coordinate is out of the source's range is
    padding. The maps have no symbols, and their `mod`, `floordiv` and
    `ceildiv` divide by positive constants only (the verifier refuses
    others: the coordinates are computed with arith's divisions).
    `inverse` must undo `map` (`inverse(map(x)) = x`: one source element a
    target slot); the verifier tries it at sample coordinates and refuses
    a rule where it fails, naming the coordinate.

    `decompose-format` consumes the rules: it rewrites every iteration that
    reads the source after the rule (in the rule's block, or nested in an
    op after it there; inside an iteration that does not walk the source's
    axes, the nested ones that do) into one iteration per rule over the
    target's axes, each after a copy iteration (marked `preprocess`) that
    fills the target from the source right before it, so that it sees
    every earlier write of the source's memory. An iteration before the
    rule, or outside its block, reads the source as it is: a rule may
    follow the iteration that computes the source. The rules of one source
    go together: an iteration between two of them is refused. A target axis is a reduction where its map
    result depends on a reduction axis, or where the discardable attribute
    `repeats` (an array of target axis positions) says several of its
    positions may hold one source coordinate (a long row split over several
    rows of a hyb bucket).

    A target slot holds the source element that `map` sends there: one
    that `inverse` sends to an element `map` sends elsewhere (a slot along
    a target axis the inverse ignores) is padding, as is one in the
    source's range that the source does not store (a block's other slots);
    padding holds zero, and the rewritten iteration runs its
    body there too. That leaves only bodies whose every store adds a product
    with the source's value to its own element (SpMM, SDDMM) unchanged, so
    `decompose-format` refuses others, unless the rule has the discardable
    attribute `sptir.exact`: every target slot in range holds an element
    the source stores (the built-in ell and hyb rules, whose padding is out
    of range). The copy reads such a slot as the source's `default_value`,
    so a rule without `sptir.exact` also needs that default to be zero or
    absent. The zero's product is zero only for finite operands: an inf or
    NaN that meets an unstored slot (a dense operand's row of a block's
    missing column) makes the sum NaN, where the source's result ignores it.

    Several rules for one source together hold each of its non-zeros once
    (hyb's buckets); a built-in rule (`decompose-format{rule=...}`) on an
    iteration that a written rule also rewrites is refused, as is an
    iteration that walks an axis whose parent is one of the source's axes
    (the new format replaces them).

    ```mlir
    sparse_iter.format_rewrite %A -> %A_bsr
        map affine_map<(i, j) -> (i floordiv 4, j floordiv 4, i mod 4, j mod 4)>
        inverse affine_map<(io, jo, ii, ji) -> (io * 4 + ii, jo * 4 + ji)>
    ```
  }];
  let arguments = (ins SparseIter_BufferType:$source, SparseIter_BufferType:$target,
                       AffineMapAttr:$map, AffineMapAttr:$inverse);
  let assemblyFormat = [{
    $source `->` $target `map` $map `inverse` $inverse attr-dict
    `:` type($source) `->` type($target)
  }];
  let hasVerifier = 1;
}

#endif // SPTIR_SPARSE_ITER_TD
