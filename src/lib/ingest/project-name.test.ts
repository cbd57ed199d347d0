import { describe, expect, it } from 'vitest';
import { encodeProjectDir, projectName, tildeHome } from './project-name.ts';

describe('projectName', () => {
	it('a recorded cwd that encodes to the folder name wins and keeps its dashes', () => {
		expect(projectName('projects/-home-me-my-app', ['/home/me/my-app'])).toEqual({ name: '~/my-app', exact: true });
		expect(encodeProjectDir('/home/me/my.app')).toBe('-home-me-my-app');
	});
	it('without a matching cwd the folder is decoded, lossily, with the home shown as ~', () => {
		expect(projectName('-home-me-work-api', [null, '/elsewhere'])).toEqual({ name: '~/work/api', exact: false });
		expect(projectName('x/-Users-dain-workspace-log')).toEqual({ name: '~/workspace/log', exact: false });
		expect(projectName('-experiments-worktrees')).toEqual({ name: '/experiments/worktrees', exact: false });
		expect(projectName('C--Users-me-code')).toEqual({ name: '~/code', exact: false });
	});
	it('a folder not named by Claude Code keeps its name', () => {
		expect(projectName('sample-project')).toEqual({ name: 'sample-project', exact: false });
		expect(projectName('')).toEqual({ name: '(top of the drop)', exact: false });
	});
	it('tildeHome only replaces a whole home prefix', () => {
		expect(tildeHome('/home/me')).toBe('~');
		expect(tildeHome('/homework/x')).toBe('/homework/x');
		expect(tildeHome('/root/x')).toBe('~/x');
	});
});
