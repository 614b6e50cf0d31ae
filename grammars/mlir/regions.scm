; Regions of an MLIR snapshot: the functions it defines, and the named modules that qualify their names.
; Capture names are the contract with languages/mlir.py:
;   @function / @function.name   a function-like op and its symbol (@f)
;   @container / @container.name a named module around functions (module @kernel_a, gpu.module @g)
;   @function.op                 any token that names a function-like op, wherever it was parsed
;                                (also inside ERROR nodes): one that is not on a found function's
;                                symbol line means the parse lost or merged a definition.

; func.func and llvm.func have their own node.
(func_operation sym_name: (symbol_ref_id) @function.name) @function

; Other dialects' functions (emitc.func, gpu.func, util.func, vm.func ...) are generic custom ops: the op name,
; then the symbol, possibly after one keyword (`util.func public @f`). languages/mlir.py keeps the symbol that
; follows the name or one bare word after it: spelled here with anchors and a wildcard between them, that
; pattern took tree-sitter 20 ms to compile (130 ms as `(bare_id)`), at every MLIR report's start; unanchored, 2.
((custom_operation
   name: (custom_op_name) @_op
   (symbol_ref_id) @function.name) @function
 (#match? @_op "^[a-z_][a-z0-9_]*\\.func$"))

(module_operation sym_name: (symbol_ref_id) @container.name) @container

; The generic form (--mlir-print-op-generic) names the op in a string and its symbol in the `sym_name` property:
; `"func.func"() <{function_type = ..., sym_name = "f"}> ({`, `"builtin.module"() <{sym_name = "k"}> ({`.
((generic_operation
   (string_literal) @_name
   (properties (attribute_entry (bare_id) @_key (attribute_value (string_literal) @function.name)))) @function
 (#match? @_name "^.[a-z_][a-z0-9_]*[.]func.$")
 (#eq? @_key "sym_name"))

((generic_operation
   (string_literal) @_name
   (properties (attribute_entry (bare_id) @_key (attribute_value (string_literal) @container.name)))) @container
 (#match? @_name "^.[a-z_][a-z0-9_]*[.](module|executable).$")
 (#eq? @_key "sym_name"))

; IREE's executables hold the functions its dispatches run (`flow.executable @abs_dispatch_0`): named modules too.
; An executable's symbol may follow one keyword (`hal.executable private @mlp_dispatch_0`), as a function's does.
((custom_operation
   name: (custom_op_name) @_op
   .
   (symbol_ref_id) @container.name) @container
 (#match? @_op "^[a-z_][a-z0-9_]*\\.module$"))

((custom_operation
   name: (custom_op_name) @_op
   (symbol_ref_id) @container.name) @container
 (#match? @_op "^[a-z_][a-z0-9_]*\\.executable$"))

["func.func" "llvm.func"] @function.op
((custom_op_name) @function.op (#match? @function.op "^[a-z_][a-z0-9_]*\\.func$"))
((bare_id) @function.op (#match? @function.op "^[a-z_][a-z0-9_]*\\.func$"))
((string_literal) @function.op (#match? @function.op "^.[a-z_][a-z0-9_]*[.]func.$"))
