/** Privacy Policy: information collected, use, security, cookies, policy changes. */
import { Link } from "wouter";
import { Page } from "../components/shell/Page.tsx";

export function PrivacyPage() {
  return (
    <Page title="Privacy policy" width="bare">
      <article className="container prose">
        <h1>Privacy Policy</h1>
        <p className="muted">This policy explains what CodeArena stores about you and why.</p>

        <h2>Information We Collect</h2>
        <ul>
          <li>
            <strong>Account details</strong>: your first name, last name and email address. Your password is stored
            only as a salted hash (argon2id); we never store or see it in plain text.
          </li>
          <li>
            <strong>Your work</strong>: the code you run and submit, the language, the verdicts, run times, memory use
            and the sample output of each submission, and the problems you create with their test cases.
          </li>
          <li>
            <strong>Messages</strong> you send through the Contact Us form: name, email address and message.
          </li>
          <li>
            <strong>Technical data</strong>: the network address of requests, kept briefly to limit abuse (for
            example repeated failed sign-ins).
          </li>
        </ul>

        <h2>How We Use Information</h2>
        <ul>
          <li>To sign you in and keep your session.</li>
          <li>To compile, run and judge your code, and to show you your submission history.</li>
          <li>
            To produce an AI code review when you ask for one. Depending on how this server is configured, the review
            is written offline on this server or by an AI model provider; in that case your code, the problem
            statement and the latest verdict are sent to that provider for this purpose only. Hidden test data is never
            sent.
          </li>
          <li>To answer your messages. We do not sell your data or use it for advertising.</li>
        </ul>

        <h2>Data Security</h2>
        <p>
          Submitted code runs in an isolated sandbox with no network access and no access to the server's data.
          Passwords are hashed, sessions are signed and can be revoked by signing out, and only the author of a
          problem can read its hidden tests. No system is perfectly secure; please use a password you do not use
          elsewhere.
        </p>

        <h2>Cookies and Local Storage</h2>
        <p>
          We set one cookie, an httpOnly session cookie that keeps you signed in; it is not used for tracking. Your
          browser's local storage keeps your sign-in token, your light or dark mode choice, and unsaved code in the
          editor. We use no third-party analytics or advertising cookies.
        </p>

        <h2>Your Choices</h2>
        <p>
          You can sign out at any time, which ends your session on the server. To have your account and its data
          deleted, write to us through the <Link href="/contact">Contact Us</Link> page.
        </p>

        <h2>Changes to This Policy</h2>
        <p>
          If we change this policy, we will update this page and, for material changes, tell signed-in users on the
          site before the change takes effect.
        </p>
      </article>
    </Page>
  );
}
