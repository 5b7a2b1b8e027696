/**
 * Versions and their installation: the manifest of a version directory, the safe extraction of
 * archives, the download and verification of artifacts against published or pinned checksums,
 * the {@code current} link and the removal of whole trees.
 */
package dev.noneops.core.node.internal.version;
