CREATE TABLE `contest_clarifications` (
	`id` text PRIMARY KEY NOT NULL,
	`contest_id` text NOT NULL,
	`from_team_id` text,
	`to_team_id` text,
	`reply_to_id` text,
	`problem_id` text,
	`text` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`from_team_id`) REFERENCES `contest_teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`to_team_id`) REFERENCES `contest_teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `contest_clarifications_contest_idx` ON `contest_clarifications` (`contest_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `contest_events` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contest_id` text NOT NULL,
	`type` text NOT NULL,
	`object_id` text,
	`data` text,
	`audience` text NOT NULL,
	`team_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_events_contest_idx` ON `contest_events` (`contest_id`,`seq`);--> statement-breakpoint
CREATE TABLE `contest_problems` (
	`contest_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`label` text NOT NULL,
	`color` text,
	`ordinal` integer NOT NULL,
	PRIMARY KEY(`contest_id`, `problem_id`),
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contest_problems_label_uq` ON `contest_problems` (`contest_id`,`label`);--> statement-breakpoint
CREATE TABLE `contest_team_members` (
	`contest_id` text NOT NULL,
	`team_id` text NOT NULL,
	`user_id` text NOT NULL,
	PRIMARY KEY(`contest_id`, `user_id`),
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `contest_teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contest_team_members_team_idx` ON `contest_team_members` (`team_id`);--> statement-breakpoint
CREATE TABLE `contest_teams` (
	`id` text PRIMARY KEY NOT NULL,
	`contest_id` text NOT NULL,
	`name` text NOT NULL,
	`name_normalized` text NOT NULL,
	`organization` text DEFAULT '' NOT NULL,
	`join_code` text,
	`virtual_starts_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contest_teams_name_uq` ON `contest_teams` (`contest_id`,`name_normalized`);--> statement-breakpoint
CREATE UNIQUE INDEX `contest_teams_join_uq` ON `contest_teams` (`join_code`);--> statement-breakpoint
CREATE INDEX `contest_teams_contest_idx` ON `contest_teams` (`contest_id`);--> statement-breakpoint
CREATE TABLE `contests` (
	`id` text PRIMARY KEY NOT NULL,
	`short_name` text NOT NULL,
	`title` text NOT NULL,
	`starts_at` integer NOT NULL,
	`duration_minutes` integer NOT NULL,
	`freeze_minutes` integer,
	`scoring` text NOT NULL,
	`penalty_minutes` integer DEFAULT 20 NOT NULL,
	`course_id` text,
	`registration` text NOT NULL,
	`registration_code` text,
	`created_by` text NOT NULL,
	`unfrozen_at` integer,
	`finalized_at` integer,
	`feed_phase` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contests_short_name_uq` ON `contests` (`short_name`);--> statement-breakpoint
CREATE INDEX `contests_starts_idx` ON `contests` (`starts_at`);--> statement-breakpoint
ALTER TABLE `submissions` ADD `contest_id` text REFERENCES contests(id);--> statement-breakpoint
ALTER TABLE `submissions` ADD `team_id` text REFERENCES contest_teams(id);--> statement-breakpoint
CREATE INDEX `submissions_contest_idx` ON `submissions` (`contest_id`,`team_id`,`created_at`);