; Regions of a snapshot: top-level functions, top-level classes, and each class's methods.
; Decorators belong to their definition, so the decorated_definition is the captured span.
; Nested functions are not matched: they stay inside their parent's span.
; Capture names are the contract with structure.py: @function, @class, @method and their @*.name

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
