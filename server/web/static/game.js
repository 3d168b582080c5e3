// The game page without reloads: a command posted from any control redraws the game in place
// (the page keeps its scroll), the replay steps turn by turn, and the page polls the game's
// version so that another player's move, the Rhom's or a bot's shows within two seconds.
// Without JavaScript every control is a plain form or link and a reload shows the same page.

const root = document.documentElement;
const gameId = root.dataset.game;
const POLL_MS = 1000;
let busy = false;

function swap(html, url) {
  const next = new DOMParser().parseFromString(html, "text/html");
  const fresh = next.getElementById("game");
  if (!fresh) return false;
  const y = window.scrollY;
  // The game just ended: show who won (its heading is first) rather than keep the place.
  const ended = root.dataset.status !== "finished" &&
    next.documentElement.dataset.status === "finished";
  document.getElementById("game").replaceWith(fresh);
  for (const name of ["version", "status", "replay"]) {
    const value = next.documentElement.dataset[name];
    if (value === undefined) delete root.dataset[name]; else root.dataset[name] = value;
  }
  document.title = next.title;
  if (url) history.replaceState(null, "", url);
  const over = ended && document.getElementById("over");
  if (over) over.scrollIntoView({ block: "start" }); else window.scrollTo(0, y);
  return true;
}

async function load(url, options) {
  busy = true;
  try {
    const response = await fetch(url, { credentials: "same-origin", ...options });
    const html = await response.text();
    if (!swap(html, response.ok || response.status === 409 ? response.url.split("#")[0] : null)) {
      // A refusal is a page of its own: show its message above the board, keep the game.
      const page = new DOMParser().parseFromString(html, "text/html");
      const words = page.querySelector(".message")?.textContent || `${response.status}`;
      const notice = document.createElement("p");
      notice.className = "notice";
      notice.setAttribute("role", "alert");
      notice.textContent = words;
      document.getElementById("status")?.after(notice);
    }
  } catch (error) {
    console.warn("could not reach the server", error);
  } finally {
    busy = false;
  }
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.classList.contains("control")) return;
  event.preventDefault();
  for (const button of document.querySelectorAll("form.control button")) button.disabled = true;
  load(form.action, { method: "POST", body: new FormData(form) });
});

document.addEventListener("click", (event) => {
  const link = event.target.closest("a");
  if (!link) return;
  if (link.dataset.menu) {  // a hex with several choices: open its menu, no jump
    event.preventDefault();
    for (const open of document.querySelectorAll(".hex-menu.open")) open.classList.remove("open");
    const menu = document.getElementById(link.dataset.menu);
    menu.classList.add("open");
    menu.querySelector("button")?.focus({ preventScroll: false });
  } else if (link.classList.contains("close")) {
    event.preventDefault();
    link.closest(".hex-menu")?.classList.remove("open");
  } else if (link.hasAttribute("data-replay")) {
    event.preventDefault();
    const url = new URL(link.href, location.href);
    history.pushState(null, "", url);
    load(url);
  }
});

window.addEventListener("popstate", () => load(location.href));

async function poll() {
  if (!busy && !root.dataset.replay && document.visibilityState === "visible") {
    try {
      const response = await fetch(`/games/${gameId}/version`, { credentials: "same-origin", cache: "no-store" });
      if (response.ok) {
        const now = await response.json();
        if (String(now.version) !== root.dataset.version || now.status !== root.dataset.status) {
          await load(location.pathname);
        }
      }
    } catch (error) {
      console.warn("could not reach the server", error);
    }
  }
  setTimeout(poll, POLL_MS);
}

if (gameId) setTimeout(poll, POLL_MS);
