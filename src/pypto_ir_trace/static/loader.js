/* The page's first script: inflate the viewer's code and run it. The CSP allows that code by its hash. */
(async () => {
  let code;
  try {
    code = await inflateElement(document.getElementById("viewer-code"));
  } catch (err) {
    showUnreadable("viewer", err);
    return;
  }
  const script = document.createElement("script");
  script.id = "viewer";
  script.textContent = code;
  document.body.append(script);
})();
