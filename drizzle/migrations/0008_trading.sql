CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`message` text NOT NULL,
	`link` text,
	`read_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "notifications_type_check" CHECK(type in ('trade_proposed', 'trade_accepted', 'trade_declined', 'trade_cancelled', 'trade_countered'))
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`read_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `trade_proposal_items` (
	`id` text PRIMARY KEY NOT NULL,
	`proposal_id` text NOT NULL,
	`giver_id` text NOT NULL,
	`pin_id` text NOT NULL,
	FOREIGN KEY (`proposal_id`) REFERENCES `trade_proposals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`giver_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pin_id`) REFERENCES `pins`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trade_proposal_items_unique` ON `trade_proposal_items` (`proposal_id`,`pin_id`,`giver_id`);--> statement-breakpoint
CREATE TABLE `trade_proposals` (
	`id` text PRIMARY KEY NOT NULL,
	`proposer_id` text NOT NULL,
	`recipient_id` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`note` text,
	`parent_id` text,
	`expires_at` integer NOT NULL,
	`closed_at` integer,
	`closed_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`proposer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`closed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "trade_proposals_status_check" CHECK(status in ('open', 'accepted', 'declined', 'cancelled', 'countered', 'expired')),
	CONSTRAINT "trade_proposals_parties_check" CHECK(proposer_id <> recipient_id)
);
--> statement-breakpoint
CREATE INDEX `trade_proposals_proposer_idx` ON `trade_proposals` (`proposer_id`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `trade_proposals_recipient_idx` ON `trade_proposals` (`recipient_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `trade_ratings` (
	`id` text PRIMARY KEY NOT NULL,
	`proposal_id` text NOT NULL,
	`rater_id` text NOT NULL,
	`ratee_id` text NOT NULL,
	`score` integer NOT NULL,
	`comment` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`proposal_id`) REFERENCES `trade_proposals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`rater_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ratee_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "trade_ratings_score_check" CHECK(score between 1 and 5)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `trade_ratings_unique` ON `trade_ratings` (`proposal_id`,`rater_id`);--> statement-breakpoint
CREATE INDEX `trade_ratings_ratee_idx` ON `trade_ratings` (`ratee_id`,`created_at`);--> statement-breakpoint
DROP INDEX `user_collections_status_pin_idx`;--> statement-breakpoint
CREATE INDEX `user_collections_status_pin_user_idx` ON `user_collections` (`status`,`pin_id`,`user_id`);