; The ops a snapshot runs, counted per pass ("what a pass did, in one line": arith.constant +3): each op in
; custom form by its name (arith.constant, memref.alloc, scf.for), each op in generic form by its quoted
; name ("arith.addi"(...): opcounts.py drops the quotes). Functions and modules are the map's rows, not ops.
(custom_operation name: (custom_op_name) @op)
(generic_operation . (string_literal) @op)
