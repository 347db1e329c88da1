//===- SparseIterBase.td - stage I dialect, types and axis interface -----===//
//
// Stage I of sptir (SparseTIR section 3.1). Everything here lives in
// coordinate space: an iteration walks the non-zeros of a composition of
// axes and its body reads and writes sparse buffers by coordinates.
//
//===----------------------------------------------------------------------===//

#ifndef SPTIR_SPARSE_ITER_BASE_TD
#define SPTIR_SPARSE_ITER_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/Interfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def SparseIter_Dialect : Dialect {
  let name = "sparse_iter";
  let cppNamespace = "::sptir::sparse_iter";
  let summary = "Stage I of sptir: axes, sparse buffers and sparse iterations";
  let description = [{
    The coordinate-space stage of SparseTIR. An *axis* is one dimension of a
    sparse iteration space; it is dense or sparse (are coordinates stored?)
    and fixed or variable (is the number of non-zeros per parent element a
    constant?). Structure (indptr, indices) lives on axes. A *sparse buffer*
    binds a 1-D value array to a composition of axes, so buffers with the
    same axes share one structure. A *sparse iteration* walks the non-zeros
    of a composition of axes, each spatial (`S`) or reduction (`R`), and its
    body loads and stores sparse buffers by coordinates.
  }];
  let useDefaultTypePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def SparseIter_AxisType : TypeDef<SparseIter_Dialect, "Axis"> {
  let mnemonic = "axis";
  let summary = "an axis of a sparse iteration space";
  let description = [{
    The value of an axis definition (`sparse_iter.dense_fixed` and its
    siblings). The kind, parent and structure arrays of an axis are read off
    the op that defines it, so every axis value must come from one of those
    ops, or be a parameter of the function that uses it: a helper may take
    its caller's axes (and buffers), and what depends on their definitions
    is checked, and lowered, once it is inlined where they are defined
    (MLIR's `inline` pass; both dialects let the inliner move their ops).
  }];
}

def SparseIter_BufferType : TypeDef<SparseIter_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "a sparse buffer: values over a composition of axes";
  let description = [{
    `!sparse_iter.buffer<RANK, ELEMENT>` is a buffer composed of RANK axes
    whose non-zero values have type ELEMENT. It is accessed with RANK
    coordinates at stage I (`sparse_iter.load`) and RANK positions at
    stage II (`sparse_pos.load`). RANK is at most 64; ELEMENT is a type a
    memref can hold, not a zero-width integer (the buffer lowers to one).
  }];
  let parameters = (ins "unsigned":$rank, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $rank `,` $elementType `>`";
  let genVerifyDecl = 1;
}

def IdType : AnyTypeOf<[I32, I64], "32- or 64-bit signless integer">;
def IdMemRef : MemRefRankOf<[I32, I64], [1]>;

//===----------------------------------------------------------------------===//
// Axis interface
//===----------------------------------------------------------------------===//

def SparseIter_AxisOpInterface : OpInterface<"AxisOpInterface"> {
  let cppNamespace = "::sptir::sparse_iter";
  let description = [{
    Implemented by the four axis definitions; lets verifiers and passes ask
    an axis value for its kind, parent and structure arrays.
  }];
  let methods = [
    InterfaceMethod<"The kind of this axis.",
      "::sptir::sparse_iter::AxisKind", "getAxisKind", (ins)>,
    InterfaceMethod<"The parent axis, or a null value for a root.",
      "::mlir::Value", "getParentAxis", (ins)>,
    InterfaceMethod<"The maximum coordinate (exclusive).",
      "::mlir::Value", "getLengthValue", (ins)>,
    InterfaceMethod<"The indptr array of a variable axis, else null.",
      "::mlir::Value", "getIndptrArray", (ins)>,
    InterfaceMethod<"The indices array of a sparse axis, else null.",
      "::mlir::Value", "getIndicesArray", (ins)>,
    InterfaceMethod<"Whether each row's coordinates are sorted ascending.",
      "bool", "isSortedAxis", (ins)>,
  ];
}

class SparseIter_Op<string mnemonic, list<Trait> traits = []>
    : Op<SparseIter_Dialect, mnemonic, traits>;

// Two axes with equal operands are still distinct dimensions (BSR's BI and
// BJ are both `dense_fixed %blk`), so an axis definition allocates its
// result: CSE must not merge them, yet an unused one is dead.
class SparseIter_AxisOp<string mnemonic, list<Trait> traits = []>
    : SparseIter_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<SparseIter_AxisOpInterface>])> {
  let results = (outs Res<SparseIter_AxisType, "",
                         [MemAlloc<DefaultResource, 0, FullEffect>]>:$axis);
}

#endif // SPTIR_SPARSE_ITER_BASE_TD
