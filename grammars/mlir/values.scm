; The names a renumbering changes: SSA values (%0, %arg3, %0#1, %c3_i32) and block labels (^bb2).
; The capture name @value is the contract with languages/mlir.py.
(value_use) @value
(caret_id) @value
