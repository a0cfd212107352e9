/** About Us: mission text and the features list. */
import { LanguageNames } from "../components/LanguageNames.tsx";
import { Page } from "../components/shell/Page.tsx";

export function AboutPage() {
  return (
    <Page title="About us" width="bare">
      <article className="container prose">
        <h1>About Us</h1>
        <h2>Our Mission</h2>
        <p>
          CodeArena exists to make deliberate practice in programming simple and honest. Programmers, students and
          interview candidates come here to solve algorithmic problems, get a trustworthy verdict in seconds, and see
          exactly where their solution stands, so that every attempt teaches something.
        </p>
        <p>
          Every verdict comes from the judge on our server: your code is compiled and run in a sandbox against the
          problem's sample and its hidden tests, with the same limits for everyone. Problems are written by the
          community, and anyone signed in can contribute one.
        </p>
        <h2>What You Get</h2>
        <ul>
          <li>
            <strong>Problems of varying difficulty</strong>: easy, medium and hard, each with a statement, input and
            output formats, constraints and a worked sample.
          </li>
          <li>
            <strong>Several languages</strong>: <LanguageNames />, with a boilerplate to start from.
          </li>
          <li>
            <strong>Real-time compilation and execution</strong> with detailed error messages from the compiler and
            performance metrics (run time and memory) for every test.
          </li>
          <li>
            <strong>Submission history with progress tracking</strong>: every submission per problem, its verdict,
            output and counters of passed and failed attempts.
          </li>
          <li>
            <strong>AI-powered code review</strong>: feedback on correctness, complexity and style from a generative AI
            model, or from an offline reviewer built on the compiler and the sample run where no model is configured.
          </li>
        </ul>
        <p className="muted">CodeArena is in BETA. We welcome your feedback through the Contact Us page.</p>
      </article>
    </Page>
  );
}
