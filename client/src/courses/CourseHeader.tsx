/** The signed-in header used by the course screens: back, brand, Problems and Courses links, theme. */
import type { ReactNode } from "react";
import { Link } from "wouter";
import { AppHeader, BackButton } from "../components/AppHeader.tsx";
import { ThemeToggle } from "../components/ThemeToggle.tsx";

export function CourseHeader({ children, wide }: { children?: ReactNode; wide?: boolean }) {
  return (
    <AppHeader left={<BackButton />} wide={wide}>
      {children}
      <Link href="/courses" className="btn btn-ghost btn-sm">
        Courses
      </Link>
      <Link href="/problems" className="btn btn-ghost btn-sm">
        Problems
      </Link>
      <ThemeToggle />
    </AppHeader>
  );
}
