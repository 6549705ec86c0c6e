import { join } from 'node:path';

export const REPO = join(__dirname, '..', '..', '..');
export const TEST_DATA = join(REPO, 'test', 'zor', 'data');
export const TEST_RULES = join(TEST_DATA, 'rules');
export const TEST_FIXTURES = join(TEST_DATA, 'fixtures');
