// More: clock in and out.
import { api, toast, showProblem } from "/static/js/app.js";

for (const [id, path, message] of [["clock-in", "/api/v1/auth/clock-in", "Clocked in"], ["clock-out", "/api/v1/auth/clock-out", "Clocked out"]]) {
  document.getElementById(id)?.addEventListener("click", async () => {
    try { await api("POST", path); toast(message); } catch (error) { showProblem(null, error); }
  });
}
