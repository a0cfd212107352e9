/**
 * Routes of every screen and their guards (./lib/guards.tsx). Guests are sent from signed-in
 * pages to /signin?next=<the page>; signed-in users are sent from /signin and /signup to
 * their `next`, else /problems.
 * While the start-up session check runs, guarded routes show Loading...
 * The solving page (Monaco) and the history page (syntax highlighter) are
 * separate chunks, loaded only when visited; the solving page's is requested as soon as its route
 * matches (after the first paint), not after the session check.
 */
import { lazy, Suspense, useEffect } from "react";
import { Route, Switch } from "wouter";
import { GuestOnly, RequireAdmin, RequireAuth } from "./lib/guards.tsx";
import { LandingPage } from "./pages/LandingPage.tsx";
import { SignInPage } from "./pages/SignInPage.tsx";
import { SignUpPage } from "./pages/SignUpPage.tsx";
import { ProblemsPage } from "./pages/ProblemsPage.tsx";
import { NotFoundPage } from "./pages/NotFoundPage.tsx";
import { FullPageLoading } from "./components/Loading.tsx";

const AboutPage = lazy(() => import("./pages/AboutPage.tsx").then((m) => ({ default: m.AboutPage })));
const ContactPage = lazy(() => import("./pages/ContactPage.tsx").then((m) => ({ default: m.ContactPage })));
const PrivacyPage = lazy(() => import("./pages/PrivacyPage.tsx").then((m) => ({ default: m.PrivacyPage })));
const TermsPage = lazy(() => import("./pages/TermsPage.tsx").then((m) => ({ default: m.TermsPage })));
const AccessibilityPage = lazy(() => import("./pages/AccessibilityPage.tsx").then((m) => ({ default: m.AccessibilityPage })));
const loadSolvePage = () => import("./solve/SolvePage.tsx");
const SolvePage = lazy(loadSolvePage);
const MySubmissionsPage = lazy(() => import("./pages/MySubmissionsPage.tsx"));
// The course screens: one chunk each, loaded when visited.
const CoursesPage = lazy(() => import("./courses/CoursesPage.tsx"));
const NotificationsPage = lazy(() => import("./notifications/NotificationsPage.tsx"));
const UnsubscribePage = lazy(() => import("./notifications/UnsubscribePage.tsx"));
const JoinPage = lazy(() => import("./courses/JoinPage.tsx"));
const CoursePage = lazy(() => import("./courses/CoursePage.tsx"));
const CourseSettingsPage = lazy(() => import("./courses/CourseSettingsPage.tsx"));
const AssignmentPage = lazy(() => import("./courses/AssignmentPage.tsx"));
const AssignmentEditorPage = lazy(() => import("./courses/AssignmentEditorPage.tsx"));
const GradebookPage = lazy(() => import("./courses/GradebookPage.tsx"));
const ReviewPage = lazy(() => import("./grading/ReviewPage.tsx"));
const RegradeQueuePage = lazy(() => import("./grading/RegradeQueuePage.tsx"));
const RubricsPage = lazy(() => import("./grading/RubricsPage.tsx"));
const AnalyticsPage = lazy(() => import("./analytics/AnalyticsPage.tsx"));
// The contest screens.
const ContestsPage = lazy(() => import("./contests/ContestsPage.tsx"));
const ContestEditorPage = lazy(() => import("./contests/ContestEditorPage.tsx"));
const ContestPage = lazy(() => import("./contests/ContestPage.tsx"));
const ScoreboardPage = lazy(() => import("./contests/ScoreboardPage.tsx"));
const RevealPage = lazy(() => import("./contests/RevealPage.tsx"));
const BalloonsPage = lazy(() => import("./contests/BalloonsPage.tsx"));
const SimilarityPage = lazy(() => import("./similarity/SimilarityPage.tsx"));
const SimilarityReportPage = lazy(() => import("./similarity/ReportPage.tsx"));
const SimilarityPairPage = lazy(() => import("./similarity/PairPage.tsx"));
const AdminPage = lazy(() => import("./pages/AdminPage.tsx"));
const AuthCompletePage = lazy(() => import("./pages/AuthCompletePage.tsx"));
const AccountPage = lazy(() => import("./pages/AccountPage.tsx"));
// Progress (issue 35): the learner's own page, public profiles, a student's progress in a course.
const ProgressPage = lazy(() => import("./progress/ProgressPage.tsx"));
const ProfilePage = lazy(() => import("./progress/ProfilePage.tsx"));
const StudentProgressPage = lazy(() => import("./progress/StudentProgressPage.tsx"));
const DeepLinkPage = lazy(() => import("./lti/DeepLinkPage.tsx"));
// Passwords: "forgot password" and the page a reset link opens (signed in or not).
const ForgotPasswordPage = lazy(() => import("./passwords/ForgotPasswordPage.tsx"));
const ResetPasswordPage = lazy(() => import("./passwords/ResetPasswordPage.tsx"));
const VerifyEmailPage = lazy(() => import("./account-email/VerifyEmailPage.tsx"));
const ConfirmEmailPage = lazy(() => import("./account-email/ConfirmEmailPage.tsx"));

/**
 * Starts loading a page's chunk as soon as its route matches, once the first frame is painted, rather
 * than when the start-up session check has answered (RequireAuth renders the page only then): the
 * check's round trip and the chunk's download overlap, and no page's first paint waits for the chunk
 * (docs/benchmarks.md, "Client").
 */
function PreloadAfterPaint({ load }: { load: () => Promise<unknown> }) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => void load().catch(() => {}), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [load]);
  return null;
}

export function App() {
  return (
    <Suspense fallback={<FullPageLoading />}>
      <Switch>
        <Route path="/">
          <LandingPage />
        </Route>
        <Route path="/signin">
          <GuestOnly>
            <SignInPage />
          </GuestOnly>
        </Route>
        <Route path="/forgot-password">
          <ForgotPasswordPage />
        </Route>
        <Route path="/reset-password">
          <ResetPasswordPage />
        </Route>
        <Route path="/verify-email">
          <VerifyEmailPage />
        </Route>
        <Route path="/confirm-email">
          <ConfirmEmailPage />
        </Route>
        <Route path="/auth/complete">
          <AuthCompletePage />
        </Route>
        <Route path="/lti/deep-link/:id">
          {(params) => (
            <RequireAuth>
              <DeepLinkPage id={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/account">
          <RequireAuth>
            <AccountPage />
          </RequireAuth>
        </Route>
        <Route path="/notifications">
          <RequireAuth>
            <NotificationsPage />
          </RequireAuth>
        </Route>
        <Route path="/notifications/unsubscribe">
          <UnsubscribePage />
        </Route>
        <Route path="/signup">
          <GuestOnly>
            <SignUpPage />
          </GuestOnly>
        </Route>
        <Route path="/problems">
          <RequireAuth>
            <ProblemsPage />
          </RequireAuth>
        </Route>
        <Route path="/solve/:id">
          {(params) => (
            <>
              <PreloadAfterPaint load={loadSolvePage} />
              <RequireAuth>
                <SolvePage key={params.id} problemId={params.id} />
              </RequireAuth>
            </>
          )}
        </Route>
        <Route path="/my-submissions">
          <RequireAuth>
            <MySubmissionsPage />
          </RequireAuth>
        </Route>
        <Route path="/my-submissions/:problemId">
          {(params) => (
            <RequireAuth>
              <MySubmissionsPage key={params.problemId} problemId={params.problemId} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/admin">
          <RequireAuth>
            <RequireAdmin>
              <AdminPage />
            </RequireAdmin>
          </RequireAuth>
        </Route>
        <Route path="/courses">
          <RequireAuth>
            <CoursesPage />
          </RequireAuth>
        </Route>
        <Route path="/join/:code">
          {(params) => (
            <RequireAuth>
              <JoinPage key={params.code} code={params.code} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/courses/:id/students/:userId/progress">
          {(params) => (
            <RequireAuth>
              <StudentProgressPage key={`${params.id}/${params.userId}`} courseId={params.id} userId={params.userId} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/courses/:id/regrades">
          {(params) => (
            <RequireAuth>
              <RegradeQueuePage key={params.id} courseId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/courses/:id/settings">
          {(params) => (
            <RequireAuth>
              <CourseSettingsPage key={params.id} courseId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/courses/:id/assignments/new">
          {(params) => (
            <RequireAuth>
              <AssignmentEditorPage key={params.id} courseId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/courses/:id">
          {(params) => (
            <RequireAuth>
              <CoursePage key={params.id} courseId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/assignments/:id/edit">
          {(params) => (
            <RequireAuth>
              <AssignmentEditorPage key={params.id} assignmentId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/assignments/:id/similarity">
          {(params) => (
            <RequireAuth>
              <SimilarityPage key={params.id} kind="assignment" id={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/contests/:id/similarity">
          {(params) => (
            <RequireAuth>
              <SimilarityPage key={params.id} kind="contest" id={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/similarity/:reportId/pairs/:pairId">
          {(params) => (
            <RequireAuth>
              <SimilarityPairPage key={params.pairId} reportId={params.reportId} pairId={params.pairId} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/similarity/:reportId">
          {(params) => (
            <RequireAuth>
              <SimilarityReportPage key={params.reportId} reportId={params.reportId} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/assignments/:id/rubrics">
          {(params) => (
            <RequireAuth>
              <RubricsPage key={params.id} assignmentId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/submissions/:id/review">
          {(params) => (
            <RequireAuth>
              <ReviewPage key={params.id} submissionId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/assignments/:id/gradebook">
          {(params) => (
            <RequireAuth>
              <GradebookPage key={params.id} assignmentId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/assignments/:id/analytics">
          {(params) => (
            <RequireAuth>
              <AnalyticsPage key={params.id} assignmentId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/assignments/:id">
          {(params) => (
            <RequireAuth>
              <AssignmentPage key={params.id} assignmentId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/contests">
          <ContestsPage />
        </Route>
        <Route path="/contests/new">
          <RequireAuth>
            <ContestEditorPage />
          </RequireAuth>
        </Route>
        <Route path="/contests/:id/scoreboard">{(params) => <ScoreboardPage key={params.id} contestId={params.id} />}</Route>
        <Route path="/contests/:id/reveal">
          {(params) => (
            <RequireAuth>
              <RevealPage key={params.id} contestId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/contests/:id/balloons">
          {(params) => (
            <RequireAuth>
              <BalloonsPage key={params.id} contestId={params.id} />
            </RequireAuth>
          )}
        </Route>
        <Route path="/contests/:id">{(params) => <ContestPage key={params.id} contestId={params.id} />}</Route>
        <Route path="/progress">
          <RequireAuth>
            <ProgressPage />
          </RequireAuth>
        </Route>
        <Route path="/u/:handle">{(params) => <ProfilePage key={params.handle} handle={params.handle} />}</Route>
        <Route path="/about">
          <AboutPage />
        </Route>
        <Route path="/contact">
          <ContactPage />
        </Route>
        <Route path="/privacy">
          <PrivacyPage />
        </Route>
        <Route path="/terms">
          <TermsPage />
        </Route>
        <Route path="/accessibility">
          <AccessibilityPage />
        </Route>
        <Route>
          <NotFoundPage />
        </Route>
      </Switch>
    </Suspense>
  );
}
