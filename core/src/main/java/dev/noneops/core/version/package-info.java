/**
 * Version names: {@link dev.noneops.core.version.VersionFor} names the directory a set of binaries
 * is installed in, and {@link dev.noneops.core.version.SemanticVersion} is the version syntax
 * every configured component version must follow.
 */
package dev.noneops.core.version;
