; The statements of the blocks regions live in: the module and each top-level class body.
; structure.py checks that the statements of one block start at one column: tree-sitter accepts a
; stray indent or dedent silently, and then definitions come back at the wrong level.
; Capture names, the contract with structure.py: @member, and @member.free for statements whose
; column does not matter (comments).

(module (_) @member)
(module (comment) @member.free)

(module
  [
    (class_definition body: (block (_) @member))
    (decorated_definition definition: (class_definition body: (block (_) @member)))
  ])

(module
  [
    (class_definition body: (block (comment) @member.free))
    (decorated_definition definition: (class_definition body: (block (comment) @member.free)))
  ])
