CREATE TABLE `contest_balloons` (
	`contest_id` text NOT NULL,
	`team_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`delivered_at` integer NOT NULL,
	`delivered_by` text,
	PRIMARY KEY(`contest_id`, `team_id`, `problem_id`),
	FOREIGN KEY (`contest_id`) REFERENCES `contests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`team_id`) REFERENCES `contest_teams`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`delivered_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
