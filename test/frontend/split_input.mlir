// -split-input-file handles each chunk separately, with the file's line numbers.
// RUN: gpurunner-opt %s -split-input-file | FileCheck %s
// RUN: gpurunner-opt %s -split-input-file -gpu-kernel-outlining | FileCheck %s

// CHECK: func.func @first
func.func @first() {
  return
}

// -----

// CHECK: {{//}} {{-----}}
// CHECK: func.func @second
func.func @second() {
  return
}

