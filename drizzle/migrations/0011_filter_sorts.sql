CREATE INDEX `pins_rarity_sort_name_idx` ON `pins` (`rarity`,"name" collate nocase,`id`);--> statement-breakpoint
CREATE INDEX `pins_rarity_sort_value_idx` ON `pins` (`rarity`,`estimated_value_cents`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_rarity_sort_year_idx` ON `pins` (`rarity`,`year`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_year_sort_name_idx` ON `pins` (`year`,"name" collate nocase,`id`);--> statement-breakpoint
CREATE INDEX `pins_year_sort_value_idx` ON `pins` (`year`,`estimated_value_cents`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `pins_year_sort_rarity_idx` ON `pins` (`year`,`rarity_score`,`created_at`,`id`);