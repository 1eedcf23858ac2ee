DROP INDEX `pins_rarity_idx`;--> statement-breakpoint
DROP INDEX `pins_value_idx`;--> statement-breakpoint
DROP INDEX `pins_org_idx`;--> statement-breakpoint
CREATE INDEX `pins_rarity_name_idx` ON `pins` (`rarity`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_year_idx` ON `pins` (`year`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_name_nocase_idx` ON `pins` ("name" collate nocase,`id`);--> statement-breakpoint
CREATE INDEX `pins_rarity_idx` ON `pins` (`rarity_score`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_value_idx` ON `pins` (`estimated_value_cents`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_org_idx` ON `pins` (`organization_id`,`created_at`,`id`);