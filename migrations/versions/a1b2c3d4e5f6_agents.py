"""agents: grants (personal agent keys, OAuth clients), their calls, and versions named by who made them

Revision ID: a1b2c3d4e5f6
Revises: b7c3d9e1f5a2
Create Date: 2026-12-07 02:00:00.000000

"""
from alembic import op
import sqlalchemy as sa



# revision identifiers, used by Alembic.
revision = 'a1b2c3d4e5f6'
down_revision = 'b7c3d9e1f5a2'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('agent_grants',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('user_id', sa.String(length=24), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('client_id', sa.String(length=2000), nullable=True),
    sa.Column('scopes', sa.String(length=200), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=True),
    sa.Column('auth_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('last_used_at', sa.DateTime(), nullable=True),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_agent_grants_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_agent_grants')),
    sa.UniqueConstraint('key_hash', name=op.f('uq_agent_grants_key_hash'))
    )
    with op.batch_alter_table('agent_grants', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_agent_grants_user_id'), ['user_id'], unique=False)

    op.create_table('agent_actions',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('user_id', sa.String(length=24), nullable=False),
    sa.Column('grant_id', sa.String(length=24), nullable=False),
    sa.Column('tool', sa.String(length=64), nullable=False),
    sa.Column('resume_id', sa.String(length=64), nullable=True),
    sa.Column('outcome', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['grant_id'], ['agent_grants.id'], name=op.f('fk_agent_actions_grant_id_agent_grants'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_agent_actions_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_agent_actions'))
    )
    with op.batch_alter_table('agent_actions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_agent_actions_grant_id'), ['grant_id'], unique=False)
        batch_op.create_index('ix_agent_actions_user_created', ['user_id', 'created_at'], unique=False)

    op.create_table('agent_tokens',
    sa.Column('id', sa.String(length=24), nullable=False),
    sa.Column('grant_id', sa.String(length=24), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('scopes', sa.String(length=200), nullable=False),
    sa.Column('resource', sa.String(length=2000), nullable=False),
    sa.Column('redirect_uri', sa.String(length=2000), nullable=True),
    sa.Column('code_challenge', sa.String(length=128), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['grant_id'], ['agent_grants.id'], name=op.f('fk_agent_tokens_grant_id_agent_grants'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_agent_tokens')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_agent_tokens_token_hash'))
    )
    with op.batch_alter_table('agent_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_agent_tokens_grant_id'), ['grant_id'], unique=False)

    with op.batch_alter_table('resume_versions', schema=None) as batch_op:
        batch_op.add_column(sa.Column('author', sa.String(length=200), nullable=True))


def downgrade():
    with op.batch_alter_table('resume_versions', schema=None) as batch_op:
        batch_op.drop_column('author')
    with op.batch_alter_table('agent_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_agent_tokens_grant_id'))
    op.drop_table('agent_tokens')
    with op.batch_alter_table('agent_actions', schema=None) as batch_op:
        batch_op.drop_index('ix_agent_actions_user_created')
        batch_op.drop_index(batch_op.f('ix_agent_actions_grant_id'))
    op.drop_table('agent_actions')
    with op.batch_alter_table('agent_grants', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_agent_grants_user_id'))
    op.drop_table('agent_grants')
