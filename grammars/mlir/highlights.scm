; Syntax highlighting of the printed IR. Capture names become CSS classes (hl-<name>).
; When two captures cover the same text, the pattern written first wins.

(comment) @comment
(string_literal) @string

; The symbol a function defines, then every other symbol reference (callees, globals, modules).
(func_operation sym_name: (symbol_ref_id) @function)
(symbol_ref_id) @function

(custom_op_name) @call

[(builtin_type) (dialect_type) (type_alias)] @type

[(integer_literal) (float_literal) (complex_literal)] @number
[(bool_literal) (unit_literal) (attribute_alias)] @constant

; SSA values and block labels: the names that renumbering changes.
(value_use) @variable
(caret_id) @label

[
  "func.func" "llvm.func" "module" "builtin.module" "attributes" "private" "public"
  "to" "at" "loc" "dense" "dense_resource" "affine_map" "affine_set" "strided" "offset"
] @keyword
