-- Every change to problems or their test cases bumps revisions('problems'), so
-- the problem list cache can check freshness with one primary-key read
-- (docs/decisions/024-problem-list-cache.md). Triggers catch every writer:
-- the API, the seed, another process on the same database, a manual fix in SQL.
INSERT INTO `revisions` (`name`, `value`) VALUES ('problems', 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_rev_insert` AFTER INSERT ON `problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'problems'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_rev_update` AFTER UPDATE ON `problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'problems'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `problems_rev_delete` AFTER DELETE ON `problems`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'problems'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `test_cases_rev_insert` AFTER INSERT ON `test_cases`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'problems'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `test_cases_rev_update` AFTER UPDATE ON `test_cases`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'problems'; END;
--> statement-breakpoint
CREATE TRIGGER IF NOT EXISTS `test_cases_rev_delete` AFTER DELETE ON `test_cases`
BEGIN UPDATE `revisions` SET `value` = `value` + 1 WHERE `name` = 'problems'; END;
