/**
 * Landing page: hero, key features, difficulty sections (the menu's anchors), footer.
 * "Get Started" leads a guest to sign-up and a signed-in user to the problems; the
 * languages named are the server's (../components/LanguageNames.tsx).
 */
import { Link } from "wouter";
import { LanguageNames } from "../components/LanguageNames.tsx";
import { Page } from "../components/shell/Page.tsx";
import { useAuth } from "../lib/auth.tsx";

const LEVELS = [
  {
    id: "easy",
    name: "Easy",
    text: "Warm-ups on input and output, loops, strings and simple math. Ideal for a first submission or a new language.",
  },
  {
    id: "medium",
    name: "Medium",
    text: "Classic techniques: sorting, hashing, two pointers, prefix sums, greedy choices and breadth-first search.",
  },
  {
    id: "hard",
    name: "Hard",
    text: "Dynamic programming, graphs and careful complexity: the problems that separate working code from fast code.",
  },
];

export function LandingPage() {
  const { status } = useAuth();
  return (
    <Page title={null} width="flush">
      <section className="hero">
        <div className="container hero-inner">
          <h1 className="hero-title">
            Solve Coding Challenges.
            <br />
            <span className="accent-text">Sharpen Your Skills.</span>
          </h1>
          <p className="hero-text">
            Write code in your browser, run it against the sample in seconds, and submit it to be judged on hidden tests
            with the verdict, time and memory of every run.
          </p>
          <Link href={status === "authenticated" ? "/problems" : "/signup"} className="btn btn-primary btn-lg">
            Get Started
          </Link>
        </div>
      </section>

      <section className="section" aria-labelledby="features-heading">
        <div className="container">
          <h2 id="features-heading" className="section-title">
            Key Features
          </h2>
          <div className="feature-grid">
            <article className="card feature-card">
              <div className="feature-icon" aria-hidden="true">
                {"</>"}
              </div>
              <h3>Multiple Languages</h3>
              <p className="muted">
                Solve every problem in <LanguageNames conjunction="or" />. Each language starts from a ready boilerplate, and your
                unsaved code is kept per problem and language.
              </p>
            </article>
            <article className="card feature-card">
              <div className="feature-icon" aria-hidden="true">
                ▶
              </div>
              <h3>Live Code Execution</h3>
              <p className="muted">
                Your code is compiled and run in a sandbox on the server. Watch each test being judged live, with
                compiler diagnostics, run time and memory for every test.
              </p>
            </article>
          </div>
        </div>
      </section>

      <section id="problems" className="section section-alt" aria-labelledby="levels-heading">
        <div className="container">
          <h2 id="levels-heading" className="section-title">
            All Problems
          </h2>
          <p className="section-subtitle muted">Three difficulty levels, from a first loop to dynamic programming.</p>
          <div className="level-grid">
            {LEVELS.map((level) => (
              <article key={level.id} id={level.id} className={`card level-card level-${level.id}`}>
                <span className={`badge badge-${level.id}`}>{level.name.toUpperCase()}</span>
                <h3>{level.name} problems</h3>
                <p className="muted">{level.text}</p>
                <Link href={`/problems?difficulty=${level.id}`} className="text-link">
                  Browse {level.name.toLowerCase()} problems →
                </Link>
              </article>
            ))}
          </div>
        </div>
      </section>
    </Page>
  );
}
