; The names a renumbering changes: SSA values (%0, %arg3, %0#1, %c3_i32) and block labels (^bb2).
; The capture name @value is the contract with languages/mlir.py.
(value_use) @value
(caret_id) @value

; The printer's block comments name labels too (`// 2 preds: ^bb0, ^bb2`): a renumbering rewrites them,
; so the labels inside such a comment are names as well (languages/mlir.py finds them in @value.comment).
((comment) @value.comment (#match? @value.comment "^// ([0-9]+ )?preds?: "))
