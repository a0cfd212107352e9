CREATE TABLE `problem_assets` (
	`problem_id` text NOT NULL,
	`name` text NOT NULL,
	`content_type` text NOT NULL,
	`content` blob NOT NULL,
	PRIMARY KEY(`problem_id`, `name`),
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade
);
