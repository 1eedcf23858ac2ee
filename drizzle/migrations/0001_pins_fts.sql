-- Full-text search over pins: name, organization name, event, description.
-- An FTS5 table keyed by the pins rowid, kept current by triggers (also on organization renames).
CREATE VIRTUAL TABLE `pins_fts` USING fts5(name, organization, event, description, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
--> statement-breakpoint
CREATE TRIGGER `pins_fts_insert` AFTER INSERT ON `pins` BEGIN
  INSERT INTO pins_fts(rowid, name, organization, event, description)
  VALUES (new.rowid, new.name, (SELECT name FROM organizations WHERE id = new.organization_id), coalesce(new.event, ''), coalesce(new.description, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `pins_fts_update` AFTER UPDATE OF name, organization_id, event, description ON `pins` BEGIN
  DELETE FROM pins_fts WHERE rowid = old.rowid;
  INSERT INTO pins_fts(rowid, name, organization, event, description)
  VALUES (new.rowid, new.name, (SELECT name FROM organizations WHERE id = new.organization_id), coalesce(new.event, ''), coalesce(new.description, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `pins_fts_delete` AFTER DELETE ON `pins` BEGIN
  DELETE FROM pins_fts WHERE rowid = old.rowid;
END;
--> statement-breakpoint
CREATE TRIGGER `pins_fts_org_rename` AFTER UPDATE OF name ON `organizations` BEGIN
  UPDATE pins_fts SET organization = new.name WHERE rowid IN (SELECT rowid FROM pins WHERE organization_id = new.id);
END;
