CREATE TABLE `judge_finishes` (
	`submission_id` text NOT NULL,
	`claim_token` text NOT NULL,
	`host` text NOT NULL,
	`verdict` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`submission_id`, `claim_token`),
	FOREIGN KEY (`submission_id`) REFERENCES `submissions`(`id`) ON UPDATE no action ON DELETE no action
);
