import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The cluster user's login (`<cluster-user>`, `<cluster-password>`), which a backup presents to
 * its live before it may announce itself. Only a digest of the password is kept, and a login is
 * compared in constant time: neither a log line nor a timing tells anything of it.
 */
export class ClusterCredentials {
  private readonly passwordDigest: Buffer;

  constructor(
    readonly user: string,
    password: string,
  ) {
    this.passwordDigest = digest(password);
  }

  /** Whether `user` names the cluster user (its login is then checked here, not by the security manager). */
  names(user: string | null): boolean {
    return user === this.user;
  }

  /** Whether `password` is the cluster password; the comparison takes as long whatever it is. */
  accepts(password: string | null): boolean {
    return timingSafeEqual(this.passwordDigest, digest(password ?? ''));
  }

  /** Never the password, not even its digest. */
  toJSON(): { user: string } {
    return { user: this.user };
  }
}

function digest(password: string): Buffer {
  return createHash('sha256').update(password, 'utf8').digest();
}
