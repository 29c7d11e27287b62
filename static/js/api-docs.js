// Starts Swagger UI on /api/docs (a file of its own: the CSP allows no inline script).
window.addEventListener("DOMContentLoaded", function () {
  window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
});
