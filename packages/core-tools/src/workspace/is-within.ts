// One comparison of paths for the whole system: the sandbox's mounts and the workspace's checks agree.
export { isWithin } from '@toolwright/sandbox';
