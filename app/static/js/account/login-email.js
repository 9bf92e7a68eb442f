// The sign-in form keeps the email typed when a sign-in fails. The form posts to /api/auth/signin, whose
// failure redirects back to /login?error=CODE with the form empty; the email is not put in that address
// (where logs and the history would keep it): the tab's sessionStorage carries it across instead.
const form = document.querySelector('form[action="/api/auth/signin"]');
const KEY = "signin-email";

function kept() {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null; // storage refused (a private mode): the email is typed again, as before
  }
}

if (form) {
  const email = form.elements.email;
  const typed = kept();
  if (document.getElementById("login-error") && typed && !email.value) {
    email.value = typed;
    form.elements.password.focus();
  }
  form.addEventListener("submit", () => {
    try {
      sessionStorage.setItem(KEY, email.value);
    } catch {
      // as above
    }
  });
}
