; Regions of a snapshot: top-level functions, top-level classes, and each class's methods.
; Decorators belong to their definition, so the decorated_definition is the captured span.
; Nested functions are not matched: they stay inside their parent's span.
; Capture names are the contract with structure.py: @function, @class, @method and their @*.name;
; @member is every statement of the module and of each top-level class body (the blocks regions live
; in), @member.free those among them whose column does not matter (comments).

(module
  [
    (function_definition name: (identifier) @function.name)
    (decorated_definition definition: (function_definition name: (identifier) @function.name))
  ] @function)

(module
  [
    (class_definition name: (identifier) @class.name)
    (decorated_definition definition: (class_definition name: (identifier) @class.name))
  ] @class)

(module
  [
    (class_definition
      name: (identifier) @class.name
      body: (block
        [
          (function_definition name: (identifier) @method.name)
          (decorated_definition definition: (function_definition name: (identifier) @method.name))
        ] @method))
    (decorated_definition
      definition: (class_definition
        name: (identifier) @class.name
        body: (block
          [
            (function_definition name: (identifier) @method.name)
            (decorated_definition definition: (function_definition name: (identifier) @method.name))
          ] @method)))
  ])

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
