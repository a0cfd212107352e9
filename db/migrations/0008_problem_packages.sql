CREATE TABLE `problem_packages` (
	`problem_id` text PRIMARY KEY NOT NULL,
	`examples` text NOT NULL,
	`ac_to_time_limit` real NOT NULL,
	`time_limit_to_tle` real NOT NULL,
	`time_limit_given` integer NOT NULL,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade
);
