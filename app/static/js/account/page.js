// The account page: profile and preferences (account/profile.js), password and two-factor sign-in
// (account/security.js), linked sign-in accounts (account/identities.js), passkeys (account/passkeys.js).
// Each talks to the JSON API.
import { initProfile, initPreferences } from "./profile.js";
import { initPassword, initTwoFactor } from "./security.js";
import { initIdentities } from "./identities.js";
import { initPasskeys } from "./passkeys.js";

initProfile();
initPreferences();
initPassword();
initTwoFactor();
initIdentities();
initPasskeys();
