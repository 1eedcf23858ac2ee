DROP INDEX `audit_logs_user_idx`;--> statement-breakpoint
CREATE INDEX `audit_logs_user_time_idx` ON `audit_logs` (`user_id`,`timestamp`);--> statement-breakpoint
CREATE INDEX `audit_logs_action_time_idx` ON `audit_logs` (`action`,`timestamp`);--> statement-breakpoint
DROP INDEX `identifications_created_idx`;--> statement-breakpoint
CREATE INDEX `identifications_created_pin_idx` ON `identifications` (`created_at`,`pin_id`);--> statement-breakpoint
DROP INDEX `users_role_idx`;--> statement-breakpoint
CREATE INDEX `users_role_created_idx` ON `users` (`role`,`created_at`);--> statement-breakpoint
CREATE INDEX `user_collections_created_idx` ON `user_collections` (`created_at`);--> statement-breakpoint
CREATE INDEX `user_collections_status_pin_idx` ON `user_collections` (`status`,`pin_id`);