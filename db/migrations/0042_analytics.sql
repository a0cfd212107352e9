-- Written by drizzle-kit, then WITHOUT ROWID added by hand to the two analytics summary tables (decision 078): a read by key finds the row in the key's B-tree.
CREATE TABLE `assignment_analytics_built` (
	`assignment_id` text PRIMARY KEY NOT NULL,
	`built_at` integer NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `assignment_analytics_cells` (
	`assignment_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`user_id` text NOT NULL,
	`attempts` integer NOT NULL,
	`first_at` integer NOT NULL,
	`first_ac_at` integer,
	`attempts_before_ac` integer NOT NULL,
	`solve_ms` integer,
	`last_failed_at` integer,
	`ac` integer NOT NULL,
	`wa` integer NOT NULL,
	`tle` integer NOT NULL,
	`mle` integer NOT NULL,
	`re` integer NOT NULL,
	`ce` integer NOT NULL,
	`ole` integer NOT NULL,
	PRIMARY KEY(`assignment_id`, `problem_id`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `assignment_analytics_cells_solve_idx` ON `assignment_analytics_cells` (`assignment_id`,`problem_id`,`solve_ms`,`user_id`);--> statement-breakpoint
CREATE TABLE `assignment_analytics_tests` (
	`assignment_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`user_id` text NOT NULL,
	`test_index` integer NOT NULL,
	`submissions` integer NOT NULL,
	PRIMARY KEY(`assignment_id`, `problem_id`, `test_index`, `user_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `submissions_assignment_analytics_idx` ON `submissions` (`assignment_id`,`problem_id`,`user_id`,`created_at`,`verdict`,`status`,`id`);