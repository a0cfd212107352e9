CREATE TABLE `problem_stats` (
	`problem_id` text PRIMARY KEY NOT NULL,
	`submitters` integer DEFAULT 0 NOT NULL,
	`solvers` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `problem_stats_solvers_idx` ON `problem_stats` (`solvers`);--> statement-breakpoint
CREATE TABLE `problem_tags` (
	`problem_id` text NOT NULL,
	`tag_id` text NOT NULL,
	PRIMARY KEY(`problem_id`, `tag_id`),
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `problem_tags_tag_idx` ON `problem_tags` (`tag_id`,`problem_id`);--> statement-breakpoint
CREATE TABLE `tag_synonyms` (
	`synonym` text PRIMARY KEY NOT NULL,
	`tag_id` text NOT NULL,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_slug_uq` ON `tags` (`slug`);--> statement-breakpoint
CREATE TABLE `user_problem_status` (
	`user_id` text NOT NULL,
	`problem_id` text NOT NULL,
	`status` text NOT NULL,
	`public_status` text,
	`submission_count` integer DEFAULT 0 NOT NULL,
	`first_submitted_at` integer NOT NULL,
	`last_submitted_at` integer NOT NULL,
	`solved_at` integer,
	PRIMARY KEY(`user_id`, `problem_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`problem_id`) REFERENCES `problems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_problem_status_problem_idx` ON `user_problem_status` (`problem_id`,`public_status`);--> statement-breakpoint
CREATE INDEX `user_problem_status_user_last_idx` ON `user_problem_status` (`user_id`,`last_submitted_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `handle` text;--> statement-breakpoint
ALTER TABLE `users` ADD `profile_public` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `hide_tags` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `users_handle_uq` ON `users` (`handle`);--> statement-breakpoint
-- Full-text search over problems (src/problems/bank/search.ts): SQLite's FTS5 in libSQL, the
-- title and the statement (description, input, output, constraints), kept by triggers so every
-- writer (API, import, seed, a manual fix) keeps it current. rowid = problems.rowid.
CREATE VIRTUAL TABLE IF NOT EXISTS `problems_fts` USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
INSERT INTO `problems_fts` (rowid, title, body)
SELECT rowid, title, description || char(10) || input_format || char(10) || output_format || char(10) || constraints FROM `problems`;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_fts_insert` AFTER INSERT ON `problems`
BEGIN
  INSERT INTO `problems_fts` (rowid, title, body)
  VALUES (new.rowid, new.title, new.description || char(10) || new.input_format || char(10) || new.output_format || char(10) || new.constraints);
  INSERT INTO `problem_stats` (`problem_id`) VALUES (new.id) ON CONFLICT DO NOTHING;
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_fts_update` AFTER UPDATE OF title, description, input_format, output_format, constraints ON `problems`
BEGIN
  DELETE FROM `problems_fts` WHERE rowid = old.rowid;
  INSERT INTO `problems_fts` (rowid, title, body)
  VALUES (new.rowid, new.title, new.description || char(10) || new.input_format || char(10) || new.output_format || char(10) || new.constraints);
END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_fts_delete` AFTER DELETE ON `problems`
BEGIN
  DELETE FROM `problems_fts` WHERE rowid = old.rowid;
END;
--> statement-breakpoint
-- Status rows and counters from the submissions judged so far (src/problems/bank/status.ts keeps
-- them from here on). IE is the judge's fault, never an attempt.
INSERT INTO `user_problem_status` (user_id, problem_id, status, public_status, submission_count, first_submitted_at, last_submitted_at, solved_at)
SELECT user_id, problem_id,
  CASE WHEN MAX(verdict = 'AC') = 1 THEN 'solved' ELSE 'attempted' END,
  CASE WHEN MAX(contest_id IS NULL AND assignment_id IS NULL AND verdict = 'AC') = 1 THEN 'solved'
       WHEN MAX(contest_id IS NULL AND assignment_id IS NULL) = 1 THEN 'attempted' END,
  COUNT(*), MIN(created_at), MAX(created_at), MIN(CASE WHEN verdict = 'AC' THEN created_at END)
FROM `submissions` WHERE status = 'done' AND verdict IS NOT NULL AND verdict <> 'IE'
GROUP BY user_id, problem_id;
--> statement-breakpoint
INSERT INTO `problem_stats` (problem_id, submitters, solvers)
SELECT p.id,
  (SELECT COUNT(*) FROM `user_problem_status` s WHERE s.problem_id = p.id AND s.public_status IS NOT NULL),
  (SELECT COUNT(*) FROM `user_problem_status` s WHERE s.problem_id = p.id AND s.public_status = 'solved')
FROM `problems` p;

--> statement-breakpoint
-- The base vocabulary of topic tags (admins add, rename and merge from here; the client translates these by slug).
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'implementation', 'Implementation') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'impl', id FROM `tags` WHERE slug = 'implementation' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'math', 'Mathematics') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'maths', id FROM `tags` WHERE slug = 'math' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'mathematics', id FROM `tags` WHERE slug = 'math' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'greedy', 'Greedy') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'dynamic-programming', 'Dynamic programming') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'dp', id FROM `tags` WHERE slug = 'dynamic-programming' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'data-structures', 'Data structures') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'ds', id FROM `tags` WHERE slug = 'data-structures' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'brute-force', 'Brute force') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bruteforce', id FROM `tags` WHERE slug = 'brute-force' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'complete search', id FROM `tags` WHERE slug = 'brute-force' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'exhaustive search', id FROM `tags` WHERE slug = 'brute-force' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'constructive', 'Constructive algorithms') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'constructive algorithms', id FROM `tags` WHERE slug = 'constructive' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'graphs', 'Graphs') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'graph', id FROM `tags` WHERE slug = 'graphs' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'graph theory', id FROM `tags` WHERE slug = 'graphs' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'sorting', 'Sorting') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'sortings', id FROM `tags` WHERE slug = 'sorting' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'sort', id FROM `tags` WHERE slug = 'sorting' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'binary-search', 'Binary search') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bsearch', id FROM `tags` WHERE slug = 'binary-search' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bisection', id FROM `tags` WHERE slug = 'binary-search' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'graph-traversal', 'DFS and BFS') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'dfs', id FROM `tags` WHERE slug = 'graph-traversal' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bfs', id FROM `tags` WHERE slug = 'graph-traversal' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'dfs and similar', id FROM `tags` WHERE slug = 'graph-traversal' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'graph traversal', id FROM `tags` WHERE slug = 'graph-traversal' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'trees', 'Trees') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'tree', id FROM `tags` WHERE slug = 'trees' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'strings', 'Strings') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'string', id FROM `tags` WHERE slug = 'strings' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'number-theory', 'Number theory') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'nt', id FROM `tags` WHERE slug = 'number-theory' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'combinatorics', 'Combinatorics') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'counting', id FROM `tags` WHERE slug = 'combinatorics' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'two-pointers', 'Two pointers') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'sliding window', id FROM `tags` WHERE slug = 'two-pointers' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'bitmasks', 'Bitmasks') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bitmask', id FROM `tags` WHERE slug = 'bitmasks' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bit manipulation', id FROM `tags` WHERE slug = 'bitmasks' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bits', id FROM `tags` WHERE slug = 'bitmasks' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'geometry', 'Geometry') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'computational geometry', id FROM `tags` WHERE slug = 'geometry' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'disjoint-set-union', 'Disjoint set union') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'dsu', id FROM `tags` WHERE slug = 'disjoint-set-union' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'union find', id FROM `tags` WHERE slug = 'disjoint-set-union' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'union-find', id FROM `tags` WHERE slug = 'disjoint-set-union' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'shortest-paths', 'Shortest paths') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'dijkstra', id FROM `tags` WHERE slug = 'shortest-paths' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'shortest path', id FROM `tags` WHERE slug = 'shortest-paths' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'probability', 'Probability') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'probabilities', id FROM `tags` WHERE slug = 'probability' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'expected value', id FROM `tags` WHERE slug = 'probability' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'divide-and-conquer', 'Divide and conquer') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'dnc', id FROM `tags` WHERE slug = 'divide-and-conquer' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'hashing', 'Hashing') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'hash', id FROM `tags` WHERE slug = 'hashing' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'games', 'Games') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'game theory', id FROM `tags` WHERE slug = 'games' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'flows', 'Network flow') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'flow', id FROM `tags` WHERE slug = 'flows' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'max flow', id FROM `tags` WHERE slug = 'flows' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'network flows', id FROM `tags` WHERE slug = 'flows' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'interactive', 'Interactive') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'matrices', 'Matrices') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'matrix', id FROM `tags` WHERE slug = 'matrices' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'linear algebra', id FROM `tags` WHERE slug = 'matrices' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'fft', 'FFT') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'fast fourier transform', id FROM `tags` WHERE slug = 'fft' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'ntt', id FROM `tags` WHERE slug = 'fft' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'suffix-structures', 'Suffix structures') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'suffix array', id FROM `tags` WHERE slug = 'suffix-structures' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'suffix automaton', id FROM `tags` WHERE slug = 'suffix-structures' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'string suffix structures', id FROM `tags` WHERE slug = 'suffix-structures' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'segment-tree', 'Segment tree') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'segtree', id FROM `tags` WHERE slug = 'segment-tree' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'segment trees', id FROM `tags` WHERE slug = 'segment-tree' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'fenwick tree', id FROM `tags` WHERE slug = 'segment-tree' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'binary indexed tree', id FROM `tags` WHERE slug = 'segment-tree' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'bit tree', id FROM `tags` WHERE slug = 'segment-tree' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'simulation', 'Simulation') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'backtracking', 'Backtracking') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'recursion', id FROM `tags` WHERE slug = 'backtracking' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'ad-hoc', 'Ad hoc') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'adhoc', id FROM `tags` WHERE slug = 'ad-hoc' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tags` (id, slug, name) VALUES (lower(hex(randomblob(10))), 'prefix-sums', 'Prefix sums') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'prefix sum', id FROM `tags` WHERE slug = 'prefix-sums' ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO `tag_synonyms` (synonym, tag_id) SELECT 'cumulative sum', id FROM `tags` WHERE slug = 'prefix-sums' ON CONFLICT DO NOTHING;
