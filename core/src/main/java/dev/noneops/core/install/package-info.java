/**
 * Installing a version directory: download with checksum verification, safe tarball
 * extraction, the {@code MANIFEST.json} written last, the durable move into place, and
 * verification of an installed version against its manifest.
 */
package dev.noneops.core.install;
