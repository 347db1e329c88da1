//===- SparsePos.h - stage II dialect ------------------------------------===//

#ifndef SPTIR_DIALECT_SPARSEPOS_SPARSEPOS_H
#define SPTIR_DIALECT_SPARSEPOS_SPARSEPOS_H

#include "sptir/Dialect/SparseIter/SparseIter.h"

#include "sptir/Dialect/SparsePos/SparsePosEnums.h.inc"

#include "sptir/Dialect/SparsePos/SparsePosDialect.h.inc"

#define GET_OP_CLASSES
#include "sptir/Dialect/SparsePos/SparsePosOps.h.inc"

#endif
