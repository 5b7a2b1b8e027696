/**
 * Which shared host files this node wrote: the {@link dev.noneops.core.ownership.OwnershipRecord}
 * (path + sha256 of what was written, persisted as JSON by
 * {@link dev.noneops.core.ownership.OwnershipStore}) and the
 * {@link dev.noneops.core.ownership.SharedFileWriter} that writes only what changed and records
 * it. Teardown and restore use the record to touch only what this node wrote.
 */
package dev.noneops.core.ownership;
