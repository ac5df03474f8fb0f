// RUN: echo 'a1b asb atb' | FileCheck %s
// RUN: echo 'x\y' | FileCheck %s --check-prefix=BRACKET

// Inside {{...}} FileCheck's regexes are POSIX extended ones (llvm::Regex): a
// backslash before a letter only makes that letter literal, so `\d` is `d`,
// `\s` is `s`, `\t` is `t`; inside brackets a backslash is a member like any
// other.  The embedded FileCheck must read them the same way (these lines
// pass with /usr/lib/llvm-22/bin/FileCheck too).
// CHECK-NOT: {{a\db}}
// CHECK: {{a\sb}}
// CHECK-SAME: {{a\tb}}
// BRACKET: {{x[\]y}}
