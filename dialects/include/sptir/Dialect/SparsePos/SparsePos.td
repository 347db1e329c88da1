//===- SparsePos.td - stage II: loops and accesses in position space ------===//
//
// Stage II of sptir (SparseTIR section 3.3). Sparse iterations are gone:
// each axis (or fused group) is an explicit loop over positions, indptr and
// indices are materialized as auxiliary sparse buffers with value-domain
// hints, and buffers are read and written by positions. Axes and sparse
// buffers are still the stage I ones; stage III removes them.
//
//===----------------------------------------------------------------------===//

#ifndef SPTIR_SPARSE_POS_TD
#define SPTIR_SPARSE_POS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "sptir/Dialect/SparseIter/SparseIterBase.td"

def SparsePos_Dialect : Dialect {
  let name = "sparse_pos";
  let cppNamespace = "::sptir::sparse_pos";
  let summary = "Stage II of sptir: position-space loops over sparse buffers";
  let description = [{
    The position-space stage of SparseTIR. Loops are explicit and named,
    buffer accesses use positions (offsets within the parent's row, not
    coordinates), and the structure arrays of axes appear as auxiliary
    sparse buffers. Schedules (split, reorder, bind, cache, ...) act here.
  }];
  let dependentDialects = ["::sptir::sparse_iter::SparseIterDialect"];
}

class SparsePos_Op<string mnemonic, list<Trait> traits = []>
    : Op<SparsePos_Dialect, mnemonic, traits>;

def SparsePos_IteratorKind : I32EnumAttr<"IteratorKind",
    "whether a loop is data-parallel or a reduction", [
      I32EnumAttrCase<"spatial", 0>,
      I32EnumAttrCase<"reduction", 1>]> {
  let cppNamespace = "::sptir::sparse_pos";
}

def SparsePos_YieldOp : SparsePos_Op<"yield", [Pure, Terminator,
    ParentOneOf<["ForOp"]>]> {
  let summary = "terminates a position-space loop body";
  let description = [{ Implicit in the custom form of `sparse_pos.for`. }];
  let assemblyFormat = "attr-dict";
}

def SparsePos_ForOp : SparsePos_Op<"for", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "a named loop over positions";
  let description = [{
    Runs its body once for each position `lb <= p < ub`, passing `p` as the
    block argument. `label` names the loop for stage II schedules; `kind`
    says whether iterations are independent (`spatial`) or accumulate into
    shared outputs (`reduction`). Loop attributes added by schedules (thread
    binding, unrolling) live in the attribute dictionary.

    ```mlir
    sparse_pos.for "csrmm_j" reduction %lo to %hi {
    ^bb0(%vj: index):
      ...
    }
    ```
  }];
  let arguments = (ins StrAttr:$label, SparsePos_IteratorKind:$kind,
                       Index:$lowerBound, Index:$upperBound);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $label $kind $lowerBound `to` $upperBound attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def SparsePos_LoadOp : SparsePos_Op<"load", [
    TypesMatchWith<"result type is the buffer's element type", "buffer",
      "result", "::llvm::cast<::sptir::sparse_iter::BufferType>($_self).getElementType()">]> {
  let summary = "read a sparse buffer at positions";
  let description = [{
    Loads the value at one position per axis of `buffer`. The position on a
    variable or sparse axis is relative to its parent's row: `A[%vi, %vj]`
    is the `%vj`-th non-zero of row `%vi`. An auxiliary buffer materialized
    with `extra 1` may be read one position past its end.

    `lower-sparse-iter` marks the load of a sparse axis's coordinate for a
    spatial loop with the unit attribute `sptir.distinct`: the loop's kind
    declares that its positions hold distinct coordinates (a hyb bucket
    that lists each row once), and the schedules' dependence test takes the
    coordinates read at two positions to differ.

    ```mlir
    %a = sparse_pos.load %A[%vi, %vj] : !sparse_iter.buffer<2, f32>
    ```
  }];
  let arguments = (ins SparseIter_BufferType:$buffer, Variadic<Index>:$positions);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$buffer `[` $positions `]` attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def SparsePos_StoreOp : SparsePos_Op<"store", [
    TypesMatchWith<"stored value has the buffer's element type", "buffer",
      "value", "::llvm::cast<::sptir::sparse_iter::BufferType>($_self).getElementType()">]> {
  let summary = "write a sparse buffer at positions";
  let description = [{
    Stores `value` at one position per axis of `buffer`.

    ```mlir
    sparse_pos.store %v, %C[%vi, %vk] : !sparse_iter.buffer<2, f32>
    ```
  }];
  let arguments = (ins AnyType:$value, SparseIter_BufferType:$buffer,
                       Variadic<Index>:$positions);
  let assemblyFormat = "$value `,` $buffer `[` $positions `]` attr-dict `:` type($buffer)";
  let hasVerifier = 1;
}

def SparsePos_AssumeDomainOp : SparsePos_Op<"assume_domain"> {
  let summary = "promise the value range of an auxiliary buffer";
  let description = [{
    Every value stored in `buffer` lies in `[lo, hi]`: `J_indptr` in
    `[0, nnz]`, `J_indices` in `[0, length]`. Schedules use it to bound
    loop extents and index arithmetic.

    ```mlir
    sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
    ```
  }];
  let arguments = (ins SparseIter_BufferType:$buffer, Index:$lo, Index:$hi);
  let assemblyFormat = [{
    $buffer `in` ` ` `[` $lo `,` $hi `]` attr-dict `:` type($buffer)
  }];
  let hasVerifier = 1;
}

def SparsePos_FindOp : SparsePos_Op<"find", [Pure]> {
  let summary = "coordinate lookup: binary search in a sorted sparse row";
  let description = [{
    The position of coordinate `coord` in the row of sparse axis `axis`
    selected by `ancestors`, one position per ancestor of `axis` from the
    root down. `found` is false when the coordinate is not stored; the
    position is then where it would be inserted. Lowering emits this where
    an access names a coordinate on a sparse axis that its loops do not
    walk; the axis must be `sorted`.

    ```mlir
    %vj, %found = sparse_pos.find %J[%vi], %c
    ```
  }];
  let arguments = (ins SparseIter_AxisType:$axis, Variadic<Index>:$ancestors,
                       Index:$coord);
  let results = (outs Index:$position, I1:$found);
  let assemblyFormat = "$axis `[` $ancestors `]` `,` $coord attr-dict";
  let hasVerifier = 1;
}

def SparsePos_ParentPositionOp : SparsePos_Op<"parent_position", [Pure]> {
  let summary = "the parent position that owns a flat position of a fused loop";
  let description = [{
    A fused loop over `(P, A)` walks the flat positions `0 .. nnz` of axis
    `A` (flat: counted over the whole space `A` closes). This gives the flat
    position of the parent `P` whose row holds `flat`: `flat / nnz_cols`
    for a fixed axis, and the last `p` with `indptr[p] <= flat` (a binary
    search) for a variable axis. For a root parent the flat position is its
    position. The position within the row is `flat` minus that row's start.

    ```mlir
    %vi = sparse_pos.parent_position %J, %p
    ```
  }];
  let arguments = (ins SparseIter_AxisType:$axis, Index:$flat);
  let results = (outs Index:$position);
  let assemblyFormat = "$axis `,` $flat attr-dict";
  let hasVerifier = 1;
}

#endif // SPTIR_SPARSE_POS_TD
