export declare const SSHD: string;
export interface Sshd {
  /** The exec command that runs `remote` over ssh to this sshd. */
  command(...remote: string[]): string[];
  stop(): void;
}
export declare function startSshd(dir: string): Promise<Sshd>;
