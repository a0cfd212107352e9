/** Terms of Service: use license, user conduct, disclaimer, limitations, governing law. */
import { Page } from "../components/shell/Page.tsx";

export function TermsPage() {
  return (
    <Page title="Terms of service" width="bare">
      <article className="container prose">
        <h1>Terms of Service</h1>
        <p className="muted">By creating an account or using CodeArena you agree to these terms.</p>

        <h2>Use License</h2>
        <p>
          You may use CodeArena to practise programming, to solve problems and to publish problems for others. You keep
          the rights to the code you write and the problems you create; by publishing a problem you allow other users
          to read its statement and sample and to be judged against its tests on this site. You may not copy the
          service itself, or scrape or republish other users' problems in bulk.
        </p>

        <h2>User Conduct</h2>
        <ul>
          <li>Submit only code meant to solve the problem. Do not try to escape the sandbox, attack the server, read other users' data or exhaust shared resources.</li>
          <li>Do not try to obtain hidden test data or to forge verdicts.</li>
          <li>Keep problem statements and messages lawful and respectful; no spam, malware or personal data of others.</li>
          <li>One person, one account. Do not share your sign-in or act on behalf of others without permission.</li>
        </ul>
        <p>We may remove content or suspend accounts that break these rules.</p>

        <h2>Disclaimer</h2>
        <p>
          CodeArena is in BETA and is provided "as is", without warranties of any kind. Verdicts come from automated
          tests and may be wrong if a problem's tests are wrong. AI code reviews are advice to a learner and may be
          incomplete or mistaken; they never change a verdict.
        </p>

        <h2>Limitations</h2>
        <p>
          To the extent the law allows, we are not liable for any indirect or consequential damage, or for loss of
          data, arising from the use of or inability to use the service. Runs are limited in time, memory and
          frequency so that the service stays fair for everyone.
        </p>

        <h2>Governing Law</h2>
        <p>
          These terms are governed by the laws of the place where the operator of this CodeArena server is
          established, without regard to its conflict-of-law rules. Disputes go to the competent courts of that place.
        </p>

        <h2>Changes</h2>
        <p>We may update these terms; continued use after an update means you accept the new terms.</p>
      </article>
    </Page>
  );
}
