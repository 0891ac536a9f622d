// More: clock in and out, and the shift summaries (sales, revenue, tips, time) as the server worked them out.
import { api, el, page, toast, showProblem } from "/static/js/app.js";
import { dateTime } from "/static/js/shared/dates.js";
import { hoursAndMinutes as hours, money } from "/static/js/shared/format.js";

const summary = (shift) => `${hours(shift.minutes)}, ${shift.salesCount} sale${shift.salesCount === 1 ? "" : "s"}, ${money(shift.revenue)} revenue, ${money(shift.tips)} tips`;

async function loadShifts() {
  const list = document.getElementById("shifts");
  if (!list) return;
  try {
    const shifts = await api("GET", "/api/v1/shifts?days=7", undefined, { quiet: true });
    list.replaceChildren(...shifts.slice(0, 20).map((shift) => el("li", { "data-shift": shift.id },
      el("strong", {}, `${shift.username === page.user ? "" : `${shift.username} · `}${dateTime(shift.startedAt)}${shift.endedAt ? "" : " (clocked in)"}`),
      el("span", { class: "muted" }, ` — ${summary(shift)}`))));
    document.getElementById("shifts-card").hidden = shifts.length === 0;
  } catch { /* the list is a convenience */ }
}

for (const [id, path, message] of [["clock-in", "/api/v1/auth/clock-in", "Clocked in"], ["clock-out", "/api/v1/auth/clock-out", "Clocked out"]]) {
  document.getElementById(id)?.addEventListener("click", async () => {
    try {
      const shift = await api("POST", path);
      toast(shift.endedAt ? `${message}: ${summary(shift)}` : message);
      loadShifts();
    } catch (error) { showProblem(null, error); }
  });
}
loadShifts();
